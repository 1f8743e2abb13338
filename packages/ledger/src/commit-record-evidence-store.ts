/**
 * The EvidenceStore over any {@link CommitRecordStore}: the one ledger engine on the commit-record
 * protocol, plus a search that uses the store's own search narrowed to committed records. Mem0, Zep
 * and LangGraph BaseStore adapters are this class over their store.
 */
import { decodeView, type EvidenceView, InvalidArgumentError } from '@ewp/core';
import { COMMIT_RECORD_LIMITS, CommitRecordBackend, type CommitRecordBackendOptions } from './commit-record-backend.js';
import type { CommitRecordStore } from './commit-record-store.js';
import { MissingViewError, StoreUnavailableError } from './errors.js';
import type { StoreCapabilities } from './evidence-store.js';
import type { ChainVerification, VerifyChainOptions } from '@ewp/canonical';
import { LedgerEngineStore } from './ledger-engine.js';

/** Hits a search returns when the caller gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;

/** Options of {@link CommitRecordEvidenceStore}. */
export interface CommitRecordEvidenceStoreOptions extends CommitRecordBackendOptions {
  /** Whether the store keeps its records across processes (Mem0, Zep: yes). Default true. */
  persistent?: boolean;
  /**
   * Short store name (`mem0`, `zep`): a partial search's `retrieval_scope` is `<label>.search` and
   * the records it left out are listed as `<label>:<kind>:<id>`. Default `store`.
   */
  label?: string;
  /** The `adapter_meta` key a search writes its query and scores under. Default `@ewp/ledger`. */
  metaNamespace?: string;
}

/** Options of {@link CommitRecordEvidenceStore.search}. */
export interface StoreSearchOptions {
  /** Most hits asked of the store (default 10; the store may clamp it). */
  limit?: number;
  /** Search within this snapshot instead of the latest. */
  viewId?: string;
}

/** `verifyChain` on a store without transactions: the result, and what it cannot vouch for. */
export type CommitRecordChainVerification = ChainVerification & {
  /** Guarantees a transactional store gives and this one does not (see {@link COMMIT_RECORD_LIMITS}). */
  not_guaranteed: string[];
};

/** An EvidenceStore over a {@link CommitRecordStore}. */
export class CommitRecordEvidenceStore extends LedgerEngineStore {
  /** The records' store (for adapters that read what the store holds besides the ledger). */
  readonly records: CommitRecordStore;
  protected readonly commitBackend: CommitRecordBackend;
  private readonly label: string;
  private readonly metaNamespace: string;

  constructor(records: CommitRecordStore, options: CommitRecordEvidenceStoreOptions = {}) {
    const backend = new CommitRecordBackend(records, options);
    const capabilities: StoreCapabilities = { persistent: options.persistent ?? true, multiProcess: true, keepsAdapterMeta: true, transactional: false };
    super(backend, Object.freeze(capabilities));
    this.records = records;
    this.commitBackend = backend;
    this.label = options.label ?? 'store';
    this.metaNamespace = options.metaNamespace ?? '@ewp/ledger';
  }

  /** Whether the underlying store can search ({@link search} refuses otherwise). */
  get searchable(): boolean {
    return this.records.search !== undefined;
  }

  /**
   * The store's own search over one snapshot's assertions and evidence (default: the latest).
   * Hits outside committed ingests are dropped. A result that holds fewer records than the
   * snapshot is DEGRADED: view id `<view_id>#search`, `retrieval_scope` `<label>.search`, the
   * missed records in `omitted_sources`; the query and the store's scores go to
   * `adapter_meta[metaNamespace]`, never into warrant. No snapshot → `MissingViewError`.
   */
  async search(propositionId: string, query: string, options: StoreSearchOptions = {}): Promise<EvidenceView> {
    this.ensureOpen();
    const search = this.records.search?.bind(this.records);
    if (search === undefined) throw new InvalidArgumentError('search', `the ${this.label} store cannot search`);
    if (typeof query !== 'string') throw new InvalidArgumentError('query', 'must be a string');
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError('limit', 'must be a positive integer');
    const full = await this.get(propositionId, options.viewId);
    if (full === undefined) throw new MissingViewError(propositionId, options.viewId);
    const committed = await this.commitBackend.committedIngests();
    const hit = new Set<string>();
    const scores: Record<string, number> = {};
    for (const { record, score } of await search(query, { proposition: propositionId, limit })) {
      if (record.family !== 'row' || record.proposition !== propositionId || !committed.has(record.ingest)) continue;
      let binding: { kind?: unknown; id?: unknown } | undefined;
      try {
        binding = (JSON.parse(record.body) as { binding?: { kind?: unknown; id?: unknown } }).binding;
      } catch {
        continue;
      }
      if ((binding?.kind !== 'assertion' && binding?.kind !== 'evidence') || typeof binding.id !== 'string') continue;
      const key = `${binding.kind}:${binding.id}`;
      hit.add(key);
      if (score !== undefined) scores[key] = Math.max(scores[key] ?? score, score);
    }
    const assertions = full.assertions.filter((a) => hit.has(`assertion:${a.assertion_id}`));
    const evidence = full.evidence.filter((e) => hit.has(`evidence:${e.evidence_id}`));
    const omitted = [
      ...full.assertions.filter((a) => !hit.has(`assertion:${a.assertion_id}`)).map((a) => `${this.label}:assertion:${a.assertion_id}`),
      ...full.evidence.filter((e) => !hit.has(`evidence:${e.evidence_id}`)).map((e) => `${this.label}:evidence:${e.evidence_id}`),
    ];
    const partial = omitted.length > 0;
    const ours = full.adapter_meta[this.metaNamespace];
    return decodeView({
      ...full,
      view_id: partial ? `${full.view_id}#search` : full.view_id,
      assertions,
      evidence,
      omitted_sources: [...full.omitted_sources, ...omitted],
      degraded: full.degraded || partial,
      retrieval_scope: partial ? `${this.label}.search` : full.retrieval_scope,
      adapter_meta: {
        ...full.adapter_meta,
        [this.metaNamespace]: { ...(typeof ours === 'object' && ours !== null ? ours : {}), query, retrieval_scores: scores },
      },
    });
  }

  /**
   * The engine's check (chain, anchor, every snapshot digest, every record against its event), with
   * `not_guaranteed` naming what no check can give on a store without transactions. A ledger the
   * protocol cannot read (two commits at one position, a missing position or row) is reported as
   * `row_mismatch`, not thrown.
   */
  override async verifyChain(options?: VerifyChainOptions): Promise<CommitRecordChainVerification> {
    let result: ChainVerification;
    try {
      // An audit reads every record as stored now, not what earlier reads kept.
      this.commitBackend.forgetReads();
      result = await super.verifyChain(options);
    } catch (error) {
      if (!StoreUnavailableError.isInstance(error) || error.reason !== 'damaged') throw error;
      result = { ok: false, length: 0, firstBadIndex: 0, reason: 'row_mismatch', detail: error.message };
    }
    return { ...result, not_guaranteed: [...COMMIT_RECORD_LIMITS] };
  }
}
