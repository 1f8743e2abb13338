import type { EvidenceView } from '@ewp/core';
import { CommitRecordEvidenceStore, type CommitRecordEvidenceStoreOptions } from '@ewp/ledger';
import type { ZepClient } from '@getzep/zep-cloud';
import { META, type ZepEpisode } from './episode-codec.js';
import { factsView, META_NAMESPACE, type ZepFact } from './native-facts.js';
import { MAX_SEARCH_LIMIT, ZepRecordStore } from './zep-record-store.js';

export type { ZepEpisode } from './episode-codec.js';

/** Zep clamps an explicit list limit to 50. */
const PAGE_LIMIT = 50;

/** Configuration of a {@link ZepAdapter}. */
export interface ZepAdapterOptions extends Pick<CommitRecordEvidenceStoreOptions, 'maxAttempts' | 'visibilityTimeoutMs' | 'staleClaimMs' | 'readOnly'> {
  /** The official client, pointed at Zep Cloud or a compatible deployment. */
  client: ZepClient;
  /** The graph that holds the episodes (create it first with `client.graph.create`). */
  graphId: string;
  /** Largest episode body Zep accepts (10 000 characters, Zep's documented limit). */
  maxEpisodeChars?: number;
}

/**
 * An EvidenceStore kept in a Zep graph: the shared ledger engine on the commit-record protocol,
 * each record as episodes through the official client (a claim's record has the claim as a text
 * episode, so Zep's own search and fact extraction see it). Every store rule is the engine's; a
 * write waits until Zep has processed its episodes; reads verify digests, so a deleted or altered
 * episode makes the read fail (`StoreUnavailableError`, `damaged`). Zep's own facts are read
 * separately as untrusted assertions ({@link readNative}, {@link searchFacts}).
 */
export class ZepAdapter extends CommitRecordEvidenceStore {
  readonly client: ZepClient;
  readonly graphId: string;
  private readonly episodes: ZepRecordStore;

  constructor(options: ZepAdapterOptions) {
    const episodes = new ZepRecordStore(options.client, options.graphId, options.maxEpisodeChars);
    super(episodes, { ...options, persistent: true, label: 'zep', metaNamespace: META_NAMESPACE });
    this.client = options.client;
    this.graphId = options.graphId;
    this.episodes = episodes;
  }

  /**
   * Zep's own facts about P: entity edges extracted from P's episodes plus (by default) facts with
   * no episode at all (added by Zep's pipeline or `addFactTriple`). Untrusted and DEGRADED.
   */
  async readNative(propositionId: string, options: { includeUnscoped?: boolean } = {}): Promise<EvidenceView> {
    this.ensureOpen();
    const own = new Set((await this.rawRecords(propositionId)).map((e) => e.uuid));
    const facts = (await this.listFacts()).filter((f) =>
      (f.episodes ?? []).length === 0 ? options.includeUnscoped !== false : (f.episodes ?? []).some((u) => own.has(u)),
    );
    return factsView(propositionId, facts);
  }

  /**
   * A fact search (scope `edges`). Zep returns one edge per distinct fact, so repeated records
   * collapse: the view is DEGRADED (`retrieval_scope: "zep.search"`) and every assertion is an
   * untrusted `extract` record; it never stands in for a snapshot.
   */
  async searchFacts(propositionId: string, query: string, options: { limit?: number } = {}): Promise<EvidenceView> {
    this.ensureOpen();
    const limit = Math.min(Math.max(1, options.limit ?? 10), MAX_SEARCH_LIMIT);
    const result = await this.client.graph.search({ graphId: this.graphId, query, scope: 'edges', limit });
    return factsView(propositionId, (result.edges ?? []) as ZepFact[], 'zep.search');
  }

  /** Every episode Zep holds for P, as returned (for loss classification and debugging). */
  async rawRecords(propositionId: string): Promise<ZepEpisode[]> {
    this.ensureOpen();
    return this.episodes.episodes([{ comparisonOperator: '=', propertyName: META.proposition, propertyValue: propositionId }]);
  }

  private async listFacts(): Promise<ZepFact[]> {
    const out: ZepFact[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data, rawResponse } = await this.client.graph.edge
        .getByGraphId(this.graphId, { limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) })
        .withRawResponse();
      out.push(...(data as ZepFact[]));
      const next = rawResponse.headers.get('Zep-Next-Cursor');
      if (!next || data.length === 0) return out;
      cursor = next;
    }
  }
}
