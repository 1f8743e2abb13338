import { randomUUID } from 'node:crypto';
import { type Assertion, decodeView, type EvidenceItem, type EvidenceView } from '@ewp/core';
import { identityClash, type SnapshotBody, snapshotBody, snapshotDigest } from '@ewp/ledger';
import { Mem0AdapterError } from './mem0-adapter-error.js';
import type { Mem0Backend, StoredMemory } from './mem0-backend.js';
import { META_NAMESPACE, nativeView, storeNotes } from './native-memory.js';
import {
  decodeMember,
  encodeMember,
  META,
  type MemberKind,
  memoryText,
  SNAPSHOT_KIND,
} from './snapshot-codec.js';

/** Options of {@link Mem0Adapter.read}. */
export interface Mem0ReadOptions {
  /** Read exactly this snapshot (default: the latest committed one). */
  viewId?: string;
  /**
   * Instead of refusing a snapshot whose memories were deleted or altered outside the adapter,
   * return what is left as a DEGRADED view listing the missing records in `omitted_sources`.
   */
  allowPartial?: boolean;
}

/** Options of {@link Mem0Adapter.search}. */
export interface Mem0SearchOptions {
  limit?: number;
  viewId?: string;
}

/** What {@link Mem0Adapter.inspect} found about one committed snapshot. */
export interface SnapshotInspection {
  view_id: string;
  seq: number;
  /** `ok`, or why a read would be refused. */
  status: 'ok' | 'missing' | 'altered';
  /** Members the snapshot memory counts that are no longer in Mem0 (deleted outside the adapter). */
  missing: number;
  /** Memories whose text or record no longer matches what was written (updated outside the adapter). */
  altered: string[];
  /** Expiry or updates Mem0 recorded on members (store-local; never part of warrant). */
  notes: { memory_id: string; note: string }[];
}

interface Committed {
  memory: StoredMemory;
  viewId: string;
  ingestId: string;
  seq: number;
  digest: string;
  members: number;
  body: SnapshotBody;
}

interface Rebuilt {
  view: EvidenceView;
  altered: string[];
  missing: number;
  members: StoredMemory[];
  digestOk: boolean;
}

/** Configuration shared by both clients. */
export interface Mem0AdapterOptions {
  /** How long `write` waits for a hosted async write to become readable (ms). Default 15 000. */
  settleTimeoutMs?: number;
}

/**
 * Maps EvidenceViews into Mem0 and back, losslessly: one memory per assertion and evidence item
 * (memory text = the claim, `infer: false`), then one snapshot memory carrying checks, conflicts,
 * lineage, completeness, subjects, adapter_meta and a digest of the whole snapshot. A snapshot
 * exists once its snapshot memory is written; reads verify the digest, so a tampered, partial or
 * lagging read is refused instead of being used.
 */
export class Mem0Adapter {
  readonly backend: Mem0Backend;
  private readonly settleTimeoutMs: number;

  constructor(backend: Mem0Backend, options: Mem0AdapterOptions = {}) {
    this.backend = backend;
    this.settleTimeoutMs = options.settleTimeoutMs ?? 15_000;
  }

  /** Stores a view as a new snapshot. Re-writing an identical snapshot is a no-op; a different one under the same id is refused. */
  async write(input: EvidenceView | unknown): Promise<void> {
    const view = decodeView(input);
    const digest = snapshotDigest(view);
    const memories = await this.backend.listByMetadata(META.pid, view.proposition_id);
    const committed = this.committed(memories);
    const same = committed.filter((c) => c.viewId === view.view_id);
    if (same.length > 0) {
      if (same.every((c) => c.digest === digest)) return;
      throw new Mem0AdapterError('SNAPSHOT_IMMUTABLE', `snapshot ${view.view_id} of ${view.proposition_id} is already stored with other content`, {
        proposition_id: view.proposition_id,
        view_id: view.view_id,
      });
    }
    const stored = committed.map((c) => this.rebuild(c, memories)).filter((r) => r.digestOk).map((r) => r.view);
    const clash = identityClash(stored, view);
    if (clash !== undefined) {
      throw new Mem0AdapterError('SNAPSHOT_IDENTITY', `${clash} of ${view.proposition_id} names other content in an earlier snapshot`, {
        proposition_id: view.proposition_id,
        view_id: view.view_id,
        clash,
      });
    }
    const seq = 1 + Math.max(0, ...committed.map((c) => c.seq), ...memories.map((m) => Number(m.metadata[META.seq]) || 0));
    const ingestId = randomUUID();
    const common = { [META.pid]: view.proposition_id, [META.viewId]: view.view_id, [META.ingestId]: ingestId, [META.seq]: seq };
    const members: [MemberKind, Assertion | EvidenceItem][] = [
      ...view.assertions.map((a) => ['assertion', a] as [MemberKind, Assertion]),
      ...view.evidence.map((e) => ['evidence', e] as [MemberKind, EvidenceItem]),
    ];
    // One add per memory, never retried: a retry could duplicate a memory inside one ingest.
    for (const [index, [kind, record]] of members.entries()) {
      const key = kind === 'assertion' ? (record as Assertion).assertion_id : (record as EvidenceItem).evidence_id;
      await this.backend.add(memoryText(kind, record), { ...common, [META.kind]: kind, [META.key]: key, [META.record]: encodeMember(index, record) });
    }
    await this.backend.add(`ewp-snapshot:${view.proposition_id}`, {
      ...common,
      [META.kind]: SNAPSHOT_KIND,
      [META.digest]: digest,
      [META.members]: members.length,
      [META.body]: JSON.stringify(snapshotBody(view)),
    });
    await this.settle(view.proposition_id, view.view_id);
  }

  /** Reads a committed snapshot back; refuses a read that does not rebuild it exactly (see {@link Mem0ReadOptions.allowPartial}). */
  async read(propositionId: string, options: Mem0ReadOptions = {}): Promise<EvidenceView> {
    const memories = await this.backend.listByMetadata(META.pid, propositionId);
    const chosen = this.choose(propositionId, memories, options.viewId);
    if (chosen === undefined) {
      if (options.viewId !== undefined || memories.every((m) => m.metadata[META.kind] !== undefined)) {
        throw new Mem0AdapterError('SNAPSHOT_NOT_FOUND', `no committed snapshot of ${propositionId}${options.viewId ? ` named ${options.viewId}` : ''}`, {
          proposition_id: propositionId,
          view_id: options.viewId,
        });
      }
      return this.readNative(propositionId, { includeUnscoped: false });
    }
    const rebuilt = this.rebuild(chosen, memories);
    if (rebuilt.digestOk) return rebuilt.view;
    if (!options.allowPartial) {
      throw new Mem0AdapterError(
        'SNAPSHOT_INTEGRITY',
        `snapshot ${chosen.viewId} of ${propositionId} does not verify: ${rebuilt.missing} member(s) missing, ${rebuilt.altered.length} altered`,
        { proposition_id: propositionId, view_id: chosen.viewId, missing: rebuilt.missing, altered: rebuilt.altered },
      );
    }
    const omitted = [...rebuilt.view.omitted_sources, ...rebuilt.altered.map((id) => `mem0:memory:${id}`)];
    if (rebuilt.missing > 0) omitted.push(`mem0:snapshot:${chosen.viewId}:missing:${rebuilt.missing}`);
    return decodeView({
      ...rebuilt.view,
      view_id: `${chosen.viewId}#partial`,
      degraded: true,
      retrieval_scope: 'mem0.partial',
      omitted_sources: omitted,
    });
  }

  /**
   * Searches one snapshot. Mem0's scores go to `adapter_meta['@ewp/mem0'].retrieval_scores`, never
   * into warrant; members the search did not return are listed in `omitted_sources` and the view is
   * DEGRADED (`retrieval_scope: "mem0.search"`, id `<view_id>#search`).
   */
  async search(propositionId: string, query: string, options: Mem0SearchOptions = {}): Promise<EvidenceView> {
    const full = await this.read(propositionId, { viewId: options.viewId });
    const memories = await this.backend.listByMetadata(META.pid, propositionId);
    const chosen = this.choose(propositionId, memories, full.view_id)!;
    const hits = await this.backend.search(
      query,
      { [META.pid]: propositionId, [META.viewId]: chosen.viewId, [META.ingestId]: chosen.ingestId },
      options.limit ?? 20,
    );
    const scores: Record<string, number> = {};
    const hitKeys = new Set<string>();
    for (const hit of hits) {
      const kind = hit.metadata[META.kind];
      const key = hit.metadata[META.key];
      if ((kind !== 'assertion' && kind !== 'evidence') || typeof key !== 'string') continue;
      hitKeys.add(`${kind}:${key}`);
      if (hit.score !== undefined) scores[`${kind}:${key}`] = hit.score;
    }
    const assertions = full.assertions.filter((a) => hitKeys.has(`assertion:${a.assertion_id}`));
    const evidence = full.evidence.filter((e) => hitKeys.has(`evidence:${e.evidence_id}`));
    const omitted = [
      ...full.assertions.filter((a) => !hitKeys.has(`assertion:${a.assertion_id}`)).map((a) => `mem0:assertion:${a.assertion_id}`),
      ...full.evidence.filter((e) => !hitKeys.has(`evidence:${e.evidence_id}`)).map((e) => `mem0:evidence:${e.evidence_id}`),
    ];
    const partial = omitted.length > 0;
    return decodeView({
      ...full,
      view_id: partial ? `${full.view_id}#search` : full.view_id,
      assertions,
      evidence,
      omitted_sources: [...full.omitted_sources, ...omitted],
      degraded: full.degraded || partial,
      retrieval_scope: partial ? 'mem0.search' : full.retrieval_scope,
      adapter_meta: {
        ...full.adapter_meta,
        [META_NAMESPACE]: { ...(full.adapter_meta[META_NAMESPACE] as object), query, retrieval_scores: scores },
      },
    });
  }

  /**
   * Memories Mem0 wrote on its own: tagged with P but not written by this adapter, plus (by
   * default) every memory of the entity with no EWP metadata at all. Read as `extract` assertions
   * in a DEGRADED view (see {@link nativeView}).
   */
  async readNative(propositionId: string, options: { includeUnscoped?: boolean } = {}): Promise<EvidenceView> {
    const tagged = (await this.backend.listByMetadata(META.pid, propositionId)).filter((m) => m.metadata[META.kind] === undefined);
    const unscoped =
      options.includeUnscoped === false ? [] : (await this.backend.listAll()).filter((m) => m.metadata[META.pid] === undefined);
    return nativeView(propositionId, [...tagged, ...unscoped], this.backend.kind);
  }

  /** Every memory Mem0 holds for P, as returned (for loss classification and debugging). */
  async rawRecords(propositionId: string): Promise<StoredMemory[]> {
    return this.backend.listByMetadata(META.pid, propositionId);
  }

  /** Reports deletes, updates and expiry made in Mem0 outside the adapter, per committed snapshot, without refusing. */
  async inspect(propositionId: string): Promise<SnapshotInspection[]> {
    const memories = await this.backend.listByMetadata(META.pid, propositionId);
    return this.committed(memories).map((c) => {
      const rebuilt = this.rebuild(c, memories);
      return {
        view_id: c.viewId,
        seq: c.seq,
        status: rebuilt.digestOk ? 'ok' : rebuilt.missing > 0 ? 'missing' : 'altered',
        missing: rebuilt.missing,
        altered: rebuilt.altered,
        notes: storeNotes([...rebuilt.members, c.memory]),
      };
    });
  }

  private committed(memories: StoredMemory[]): Committed[] {
    const out: Committed[] = [];
    for (const m of memories) {
      if (m.metadata[META.kind] !== SNAPSHOT_KIND) continue;
      const seq = m.metadata[META.seq];
      const digest = m.metadata[META.digest];
      const viewId = m.metadata[META.viewId];
      const ingestId = m.metadata[META.ingestId];
      const members = m.metadata[META.members];
      if (!Number.isInteger(seq) || (seq as number) < 1 || typeof digest !== 'string' || typeof viewId !== 'string' || typeof ingestId !== 'string' || !Number.isInteger(members)) {
        throw new Mem0AdapterError('BAD_RECORD', `snapshot memory ${m.id} has malformed EWP metadata`, { memory_id: m.id });
      }
      let body: SnapshotBody;
      try {
        body = JSON.parse(String(m.metadata[META.body])) as SnapshotBody;
      } catch {
        throw new Mem0AdapterError('BAD_RECORD', `snapshot memory ${m.id} has an unreadable body`, { memory_id: m.id });
      }
      out.push({ memory: m, viewId, ingestId, seq: seq as number, digest, members: members as number, body });
    }
    return out;
  }

  private choose(propositionId: string, memories: StoredMemory[], viewId: string | undefined): Committed | undefined {
    const committed = this.committed(memories);
    const candidates = viewId === undefined ? committed : committed.filter((c) => c.viewId === viewId);
    if (candidates.length === 0) return undefined;
    const top = Math.max(...candidates.map((c) => c.seq));
    const newest = viewId === undefined ? candidates.filter((c) => c.seq === top) : candidates;
    if (new Set(newest.map((c) => c.digest)).size > 1) {
      throw new Mem0AdapterError('SNAPSHOT_AMBIGUOUS', `two different snapshots of ${propositionId} claim ${viewId ?? 'latest'}; read an explicit view_id`, {
        proposition_id: propositionId,
        view_ids: newest.map((c) => c.viewId),
      });
    }
    if (viewId === undefined) {
      const orphan = memories.find((m) => (Number(m.metadata[META.seq]) || 0) > top);
      if (orphan !== undefined) {
        throw new Mem0AdapterError(
          'SNAPSHOT_INCOMPLETE',
          `memories of a newer ingest of ${propositionId} exist without a committed snapshot; read an explicit view_id or re-write`,
          { proposition_id: propositionId, memory_id: orphan.id },
        );
      }
    }
    return newest.sort((a, b) => (a.memory.id < b.memory.id ? -1 : 1))[0];
  }

  private rebuild(c: Committed, memories: StoredMemory[]): Rebuilt {
    const members = memories.filter(
      (m) => m.metadata[META.viewId] === c.viewId && m.metadata[META.ingestId] === c.ingestId && m.metadata[META.kind] !== SNAPSHOT_KIND,
    );
    const altered: string[] = [];
    const assertions: [number, Record<string, unknown>][] = [];
    const evidence: [number, Record<string, unknown>][] = [];
    for (const m of members) {
      const kind = m.metadata[META.kind];
      try {
        const { index, record } = decodeMember(m.metadata[META.record]);
        const expectedText = memoryText(kind as MemberKind, record as unknown as Assertion & EvidenceItem);
        if (m.text !== expectedText || (kind !== 'assertion' && kind !== 'evidence')) {
          altered.push(m.id);
          continue;
        }
        (kind === 'assertion' ? assertions : evidence).push([index, record]);
      } catch {
        altered.push(m.id);
      }
    }
    const byIndex = (a: [number, unknown], b: [number, unknown]) => a[0] - b[0];
    const missing = Math.max(0, c.members - members.length);
    let view: EvidenceView;
    let digestOk = false;
    const raw = {
      proposition_id: (c.memory.metadata[META.pid] as string) ?? '',
      view_id: c.viewId,
      assertions: assertions.sort(byIndex).map(([, r]) => r),
      evidence: evidence.sort(byIndex).map(([, r]) => r),
      ...c.body,
    };
    try {
      view = decodeView(raw);
      digestOk = altered.length === 0 && missing === 0 && snapshotDigest(view) === c.digest;
    } catch {
      try {
        // The members do not rebuild a valid view (altered outside the adapter): keep the rest.
        view = decodeView({ ...raw, assertions: [], evidence: [] });
      } catch {
        throw new Mem0AdapterError('BAD_RECORD', `snapshot memory ${c.memory.id} does not hold a valid view`, { memory_id: c.memory.id });
      }
    }
    const notes = storeNotes([...members, c.memory]);
    view = {
      ...view,
      adapter_meta: {
        ...view.adapter_meta,
        [META_NAMESPACE]: { store: 'mem0', client: this.backend.kind, seq: c.seq, ingest_id: c.ingestId, store_notes: notes },
      },
    };
    return { view, altered, missing, members, digestOk };
  }

  private async settle(propositionId: string, viewId: string): Promise<void> {
    const deadline = Date.now() + this.settleTimeoutMs;
    let delay = 5;
    for (;;) {
      try {
        await this.read(propositionId, { viewId });
        return;
      } catch (error) {
        const retryable = error instanceof Mem0AdapterError && (error.code === 'SNAPSHOT_NOT_FOUND' || error.code === 'SNAPSHOT_INTEGRITY');
        if (!retryable) throw error;
        if (Date.now() > deadline) {
          throw new Mem0AdapterError('SETTLE_TIMEOUT', `snapshot ${viewId} of ${propositionId} did not become readable in ${this.settleTimeoutMs} ms`, {
            proposition_id: propositionId,
            view_id: viewId,
            cause: error.message,
          });
        }
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 200);
    }
  }
}
