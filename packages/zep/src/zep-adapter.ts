import { randomUUID } from 'node:crypto';
import { type Assertion, decodeView, type EvidenceItem, type EvidenceView } from '@ewp/core';
import { identityClash, snapshotBody, snapshotDigest } from '@ewp/ledger';
import type { ZepClient } from '@getzep/zep-cloud';
import {
  type EpisodeDraft,
  type ItemKind,
  itemEpisodes,
  joinEpisodes,
  META,
  type RecordItem,
  recordItem,
  restoreRecord,
  type SnapshotItem,
} from './episode-codec.js';
import { factNotes, factsView, META_NAMESPACE, type ZepFact } from './native-facts.js';
import { ZepAdapterError } from './zep-adapter-error.js';

/** The episode fields the adapter reads (the client's camelCase `Episode`). */
export interface ZepEpisode {
  uuid: string;
  content: string;
  createdAt: string;
  metadata?: Record<string, unknown>;
  processed?: boolean;
  score?: number;
}

/** Configuration of a {@link ZepAdapter}. */
export interface ZepAdapterOptions {
  /** The official client, pointed at Zep Cloud or a compatible deployment. */
  client: ZepClient;
  /** The graph that holds the episodes (create it first with `client.graph.create`). */
  graphId: string;
  /** Largest episode body Zep accepts (10 000 characters, Zep's documented limit). */
  maxEpisodeChars?: number;
  /** How long `write` waits for Zep to process the episodes (ms). Default 30 000. */
  settleTimeoutMs?: number;
  /**
   * Also list the facts Zep derived from a snapshot's episodes on `read`, and record their
   * `invalid_at` / `expired_at` in `adapter_meta['@ewp/zep'].store_notes` (store-local: never part
   * of warrant). One more paged request per read. Default false.
   */
  factNotes?: boolean;
}

interface Committed {
  viewId: string;
  ingestId: string;
  seq: number;
  snapshot: SnapshotItem;
  episodeIds: string[];
}

/** Zep's search limit. */
const MAX_SEARCH_LIMIT = 50;
/** Zep clamps an explicit list limit to 50. */
const PAGE_LIMIT = 50;

/**
 * Maps EvidenceViews into a Zep graph and back, losslessly, within Zep's limits: every assertion
 * and evidence item is a JSON episode (split into parts above 10 000 characters), tagged with 8
 * scalar metadata keys; a final snapshot episode carries checks, conflicts, lineage, completeness,
 * subjects, adapter_meta and a digest. Reads page through the graph's episodes and verify the
 * digest, so a deleted, re-tagged or unprocessed episode makes the read fail instead of returning
 * a partial view as complete. Zep's own facts are read separately as untrusted assertions.
 */
export class ZepAdapter {
  readonly client: ZepClient;
  readonly graphId: string;
  private readonly maxEpisodeChars: number;
  private readonly settleTimeoutMs: number;
  private readonly factNotes: boolean;

  constructor(options: ZepAdapterOptions) {
    this.client = options.client;
    this.graphId = options.graphId;
    this.maxEpisodeChars = options.maxEpisodeChars ?? 10_000;
    this.settleTimeoutMs = options.settleTimeoutMs ?? 30_000;
    this.factNotes = options.factNotes ?? false;
  }

  /** Stores a view as a new snapshot; an identical re-write is a no-op, a different one under the same id is refused. */
  async write(input: EvidenceView | unknown): Promise<void> {
    const view = decodeView(input);
    const digest = snapshotDigest(view);
    const episodes = await this.listEpisodes(view.proposition_id);
    const committed = this.committed(episodes);
    const same = committed.filter((c) => c.viewId === view.view_id);
    if (same.length > 0) {
      if (same.every((c) => c.snapshot.digest === digest)) return;
      throw new ZepAdapterError('SNAPSHOT_IMMUTABLE', `snapshot ${view.view_id} of ${view.proposition_id} is already stored with other content`, {
        proposition_id: view.proposition_id,
        view_id: view.view_id,
      });
    }
    const stored: EvidenceView[] = [];
    for (const c of committed) {
      try {
        stored.push(this.rebuild(view.proposition_id, c, episodes));
      } catch {
        // A snapshot broken outside the adapter cannot be compared; `inspect` reports it.
      }
    }
    const clash = identityClash(stored, view);
    if (clash !== undefined) {
      throw new ZepAdapterError('SNAPSHOT_IDENTITY', `${clash} of ${view.proposition_id} names other content in an earlier snapshot`, {
        proposition_id: view.proposition_id,
        view_id: view.view_id,
        clash,
      });
    }
    const seq = 1 + Math.max(0, ...episodes.map((e) => Number(e.metadata?.[META.seq]) || 0));
    const ingestId = randomUUID();
    const base = { [META.pid]: view.proposition_id, [META.viewId]: view.view_id, [META.ingestId]: ingestId, [META.seq]: seq };
    const drafts: EpisodeDraft[] = [];
    const members: [ItemKind, Assertion | EvidenceItem, string][] = [
      ...view.assertions.map((a) => ['assertion', a, a.assertion_id] as [ItemKind, Assertion, string]),
      ...view.evidence.map((e) => ['evidence', e, e.evidence_id] as [ItemKind, EvidenceItem, string]),
    ];
    for (const [index, [kind, record, key]] of members.entries()) {
      drafts.push(...itemEpisodes(recordItem(index, record), { ...base, [META.kind]: kind, [META.key]: key }, this.maxEpisodeChars));
    }
    const snapshot: SnapshotItem = { ewp: 'snapshot', digest, members: members.length, body: snapshotBody(view) };
    drafts.push(...itemEpisodes(snapshot, { ...base, [META.kind]: 'snapshot', [META.key]: view.view_id }, this.maxEpisodeChars));
    let last: string | undefined;
    for (const draft of drafts) {
      const episode = await this.client.graph.add({
        graphId: this.graphId,
        type: 'json',
        data: draft.data,
        sourceDescription: 'ewp',
        metadata: draft.metadata,
      });
      last = episode.uuid;
    }
    await this.settle(last!, view.proposition_id, view.view_id);
  }

  /** Reads a committed snapshot back, or refuses; with no snapshot of P, reads Zep's own facts (DEGRADED). */
  async read(propositionId: string, options: { viewId?: string } = {}): Promise<EvidenceView> {
    const episodes = await this.listEpisodes(propositionId);
    const chosen = this.choose(propositionId, episodes, options.viewId);
    if (chosen === undefined) {
      if (options.viewId === undefined && episodes.length === 0) return this.readNative(propositionId);
      throw new ZepAdapterError('SNAPSHOT_NOT_FOUND', `no committed snapshot of ${propositionId}${options.viewId ? ` named ${options.viewId}` : ''}`, {
        proposition_id: propositionId,
        view_id: options.viewId,
      });
    }
    const view = this.rebuild(propositionId, chosen, episodes);
    if (!this.factNotes) return view;
    const own = episodes.filter((e) => e.metadata?.[META.ingestId] === chosen.ingestId).map((e) => e.uuid);
    const facts = await this.listFacts({ episodeUuids: own });
    const meta = view.adapter_meta[META_NAMESPACE] as Record<string, unknown>;
    return { ...view, adapter_meta: { ...view.adapter_meta, [META_NAMESPACE]: { ...meta, derived_facts: facts.length, store_notes: factNotes(facts) } } };
  }

  /**
   * Searches the episodes of one snapshot (scope `episodes`, at most 50 hits: Zep's limit). A search
   * that returns fewer records than the snapshot holds (the limit, or Zep collapsing near-identical
   * hits) is DEGRADED: the missed records are listed in `omitted_sources`, scores go to adapter_meta.
   */
  async search(propositionId: string, query: string, options: { limit?: number; viewId?: string } = {}): Promise<EvidenceView> {
    const full = await this.read(propositionId, { viewId: options.viewId });
    const meta = full.adapter_meta[META_NAMESPACE] as { ingest_id: string };
    const limit = Math.min(Math.max(1, options.limit ?? 10), MAX_SEARCH_LIMIT);
    const result = await this.client.graph.search({
      graphId: this.graphId,
      query,
      scope: 'episodes',
      limit,
      searchFilters: {
        episodeMetadataFilters: {
          type: 'and',
          filters: [
            { comparisonOperator: '=', propertyName: META.pid, propertyValue: propositionId },
            { comparisonOperator: '=', propertyName: META.ingestId, propertyValue: meta.ingest_id },
          ],
        },
      },
    });
    const hit = new Set<string>();
    const scores: Record<string, number> = {};
    for (const e of result.episodes ?? []) {
      const kind = e.metadata?.[META.kind];
      const key = e.metadata?.[META.key];
      if ((kind === 'assertion' || kind === 'evidence') && typeof key === 'string') {
        hit.add(`${kind}:${key}`);
        if (e.score !== undefined) scores[`${kind}:${key}`] = Math.max(scores[`${kind}:${key}`] ?? 0, e.score);
      }
    }
    const assertions = full.assertions.filter((a) => hit.has(`assertion:${a.assertion_id}`));
    const evidence = full.evidence.filter((e) => hit.has(`evidence:${e.evidence_id}`));
    const omitted = [
      ...full.assertions.filter((a) => !hit.has(`assertion:${a.assertion_id}`)).map((a) => `zep:assertion:${a.assertion_id}`),
      ...full.evidence.filter((e) => !hit.has(`evidence:${e.evidence_id}`)).map((e) => `zep:evidence:${e.evidence_id}`),
    ];
    const partial = omitted.length > 0;
    return decodeView({
      ...full,
      view_id: partial ? `${full.view_id}#search` : full.view_id,
      assertions,
      evidence,
      omitted_sources: [...full.omitted_sources, ...omitted],
      degraded: full.degraded || partial,
      retrieval_scope: partial ? 'zep.search' : full.retrieval_scope,
      adapter_meta: { ...full.adapter_meta, [META_NAMESPACE]: { ...meta, query, retrieval_scores: scores } },
    });
  }

  /**
   * Zep's own facts about P: entity edges extracted from P's episodes plus (by default) facts with
   * no EWP episode at all (added by Zep's pipeline or `addFactTriple`). Untrusted and DEGRADED.
   */
  async readNative(propositionId: string, options: { includeUnscoped?: boolean } = {}): Promise<EvidenceView> {
    const own = new Set((await this.listEpisodes(propositionId)).map((e) => e.uuid));
    const facts = (await this.listFacts()).filter((f) =>
      (f.episodes ?? []).length === 0 ? options.includeUnscoped !== false : (f.episodes ?? []).some((u) => own.has(u)),
    );
    return factsView(propositionId, facts);
  }

  /**
   * A fact search (scope `edges`). Zep returns one edge per distinct fact, so repeated records
   * collapse: the view is DEGRADED (`retrieval_scope: "zep.search"`) and every assertion is an
   * untrusted `extract` record; it never stands in for the snapshot.
   */
  async searchFacts(propositionId: string, query: string, options: { limit?: number } = {}): Promise<EvidenceView> {
    const limit = Math.min(Math.max(1, options.limit ?? 10), MAX_SEARCH_LIMIT);
    const result = await this.client.graph.search({ graphId: this.graphId, query, scope: 'edges', limit });
    return factsView(propositionId, (result.edges ?? []) as ZepFact[], 'zep.search');
  }

  /** Every episode Zep holds for P, as returned (for loss classification and debugging). */
  async rawRecords(propositionId: string): Promise<ZepEpisode[]> {
    return this.listEpisodes(propositionId);
  }

  /** Per committed snapshot: does it still verify, and how many of its episodes are gone. */
  async inspect(propositionId: string): Promise<{ view_id: string; seq: number; status: 'ok' | 'broken'; reason?: string }[]> {
    const episodes = await this.listEpisodes(propositionId);
    return this.committed(episodes).map((c) => {
      try {
        this.rebuild(propositionId, c, episodes);
        return { view_id: c.viewId, seq: c.seq, status: 'ok' as const };
      } catch (error) {
        return { view_id: c.viewId, seq: c.seq, status: 'broken' as const, reason: (error as Error).message };
      }
    });
  }

  private async listEpisodes(propositionId: string): Promise<ZepEpisode[]> {
    const out: ZepEpisode[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data, rawResponse } = await this.client.graph.episode
        .listByGraphId(this.graphId, {
          limit: PAGE_LIMIT,
          orderBy: 'uuid',
          direction: 'asc',
          ...(cursor ? { cursor } : {}),
          episodeMetadataFilters: { type: 'and', filters: [{ comparisonOperator: '=', propertyName: META.pid, propertyValue: propositionId }] },
        })
        .withRawResponse();
      out.push(...(data as ZepEpisode[]));
      const next = rawResponse.headers.get('Zep-Next-Cursor');
      if (!next || data.length === 0) return out;
      cursor = next;
    }
  }

  private async listFacts(filters?: { episodeUuids: string[] }): Promise<ZepFact[]> {
    const out: ZepFact[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data, rawResponse } = await this.client.graph.edge
        .getByGraphId(this.graphId, { limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}), ...(filters ? { filters } : {}) })
        .withRawResponse();
      out.push(...(data as ZepFact[]));
      const next = rawResponse.headers.get('Zep-Next-Cursor');
      if (!next || data.length === 0) return out;
      cursor = next;
    }
  }

  /** Groups episodes into items: key → parts in order; undefined when a part is missing. */
  private items(episodes: ZepEpisode[], ingestId: string): Map<string, { kind: string; key: string; episodes: ZepEpisode[]; complete: boolean }> {
    const groups = new Map<string, { kind: string; key: string; episodes: ZepEpisode[]; complete: boolean }>();
    for (const e of episodes) {
      const m = e.metadata ?? {};
      if (m[META.ingestId] !== ingestId) continue;
      const id = `${String(m[META.kind])}:${String(m[META.key])}`;
      const group = groups.get(id) ?? { kind: String(m[META.kind]), key: String(m[META.key]), episodes: [], complete: false };
      group.episodes.push(e);
      groups.set(id, group);
    }
    for (const g of groups.values()) {
      g.episodes.sort((a, b) => Number(a.metadata?.[META.part]) - Number(b.metadata?.[META.part]));
      const parts = Number(g.episodes[0]?.metadata?.[META.parts]);
      g.complete = g.episodes.length === parts && g.episodes.every((e, i) => Number(e.metadata?.[META.part]) === i + 1);
    }
    return groups;
  }

  private committed(episodes: ZepEpisode[]): Committed[] {
    const out: Committed[] = [];
    const ingests = new Set(episodes.filter((e) => e.metadata?.[META.kind] === 'snapshot').map((e) => String(e.metadata?.[META.ingestId])));
    for (const ingestId of ingests) {
      for (const g of this.items(episodes, ingestId).values()) {
        if (g.kind !== 'snapshot' || !g.complete) continue;
        const m = g.episodes[0]!.metadata ?? {};
        let snapshot: SnapshotItem;
        try {
          snapshot = joinEpisodes(g.episodes.map((e) => e.content)) as SnapshotItem;
        } catch {
          throw new ZepAdapterError('BAD_RECORD', `snapshot episode(s) of ingest ${ingestId} are not readable JSON`, { ingest_id: ingestId });
        }
        const seq = m[META.seq];
        if (snapshot.ewp !== 'snapshot' || typeof snapshot.digest !== 'string' || !Number.isInteger(seq) || (seq as number) < 1) {
          throw new ZepAdapterError('BAD_RECORD', `snapshot of ingest ${ingestId} is malformed`, { ingest_id: ingestId });
        }
        out.push({ viewId: String(m[META.viewId]), ingestId, seq: seq as number, snapshot, episodeIds: g.episodes.map((e) => e.uuid) });
      }
    }
    return out;
  }

  private choose(propositionId: string, episodes: ZepEpisode[], viewId: string | undefined): Committed | undefined {
    const committed = this.committed(episodes);
    const candidates = viewId === undefined ? committed : committed.filter((c) => c.viewId === viewId);
    if (candidates.length === 0) return undefined;
    const top = Math.max(...candidates.map((c) => c.seq));
    const newest = viewId === undefined ? candidates.filter((c) => c.seq === top) : candidates;
    if (new Set(newest.map((c) => c.snapshot.digest)).size > 1) {
      throw new ZepAdapterError('SNAPSHOT_AMBIGUOUS', `two different snapshots of ${propositionId} claim ${viewId ?? 'latest'}`, {
        proposition_id: propositionId,
      });
    }
    if (viewId === undefined) {
      const orphan = episodes.find((e) => (Number(e.metadata?.[META.seq]) || 0) > top);
      if (orphan) {
        throw new ZepAdapterError('SNAPSHOT_INCOMPLETE', `episodes of a newer ingest of ${propositionId} exist without a committed snapshot`, {
          proposition_id: propositionId,
          episode_uuid: orphan.uuid,
        });
      }
    }
    return newest.sort((a, b) => (a.ingestId < b.ingestId ? -1 : 1))[0];
  }

  private rebuild(propositionId: string, c: Committed, episodes: ZepEpisode[]): EvidenceView {
    const assertions: RecordItem[] = [];
    const evidence: RecordItem[] = [];
    const incomplete: string[] = [];
    for (const g of this.items(episodes, c.ingestId).values()) {
      if (g.kind === 'snapshot') continue;
      if (!g.complete || (g.kind !== 'assertion' && g.kind !== 'evidence')) {
        incomplete.push(`${g.kind}:${g.key}`);
        continue;
      }
      try {
        (g.kind === 'assertion' ? assertions : evidence).push(joinEpisodes(g.episodes.map((e) => e.content)) as RecordItem);
      } catch {
        incomplete.push(`${g.kind}:${g.key}`);
      }
    }
    const found = assertions.length + evidence.length;
    const fail = (why: string): never => {
      throw new ZepAdapterError('SNAPSHOT_INTEGRITY', `snapshot ${c.viewId} of ${propositionId} does not verify: ${why}`, {
        proposition_id: propositionId,
        view_id: c.viewId,
        expected_members: c.snapshot.members,
        found_members: found,
        incomplete,
      });
    };
    if (incomplete.length > 0 || found !== c.snapshot.members) fail(`${c.snapshot.members} member(s) expected, ${found} complete`);
    const byIndex = (a: RecordItem, b: RecordItem) => a.index - b.index;
    let view: EvidenceView;
    try {
      view = decodeView({
        proposition_id: propositionId,
        view_id: c.viewId,
        assertions: assertions.sort(byIndex).map(restoreRecord),
        evidence: evidence.sort(byIndex).map(restoreRecord),
        ...c.snapshot.body,
      });
    } catch (error) {
      return fail(`rebuilt view is invalid (${(error as Error).message})`);
    }
    if (snapshotDigest(view) !== c.snapshot.digest) fail('digest mismatch');
    return {
      ...view,
      adapter_meta: { ...view.adapter_meta, [META_NAMESPACE]: { store: 'zep', graph_id: this.graphId, seq: c.seq, ingest_id: c.ingestId } },
    };
  }

  private async settle(lastEpisode: string, propositionId: string, viewId: string): Promise<void> {
    // Zep processes one graph's episodes in order, so the last one processed means all are.
    const deadline = Date.now() + this.settleTimeoutMs;
    let delay = 5;
    // A deployment that does not report `processed` is taken at its word; the verified read below still guards.
    while ((await this.client.graph.episode.get(lastEpisode)).processed === false) {
      if (Date.now() > deadline) {
        throw new ZepAdapterError('SETTLE_TIMEOUT', `Zep did not process snapshot ${viewId} of ${propositionId} within ${this.settleTimeoutMs} ms`, {
          proposition_id: propositionId,
          view_id: viewId,
          episode_uuid: lastEpisode,
        });
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 250);
    }
    await this.read(propositionId, { viewId });
  }
}
