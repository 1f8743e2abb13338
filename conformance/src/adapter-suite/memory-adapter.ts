import type { EvidenceView } from '@ewp/core';

/** Options of {@link MemoryAdapter.read}. */
export interface ReadOptions {
  /** Read exactly this snapshot; without it the latest committed snapshot is read. */
  viewId?: string;
}

/** Options of {@link MemoryAdapter.search}. */
export interface SearchOptions {
  /** Most records the store may return; adapters clamp it to the store's own maximum. */
  limit?: number;
  /** Search within this snapshot instead of the latest. */
  viewId?: string;
}

/**
 * The contract every memory-store adapter keeps: `write` maps every record of a view into the
 * store, `read` maps the store's records back into the same view. Stores that cannot keep
 * something declare it in their expected-loss file instead of hiding it.
 */
export interface MemoryAdapter {
  /** Stores the view; resolves once the snapshot is readable. Invalid views are refused. */
  write(view: EvidenceView): Promise<void>;
  /** Reads a stored snapshot back; refuses (throws) rather than return a partial view as complete. */
  read(propositionId: string, options?: ReadOptions): Promise<EvidenceView>;
  /** A store search scoped to one proposition; a subset of the records must come back `DEGRADED`. */
  search?(propositionId: string, query: string, options?: SearchOptions): Promise<EvidenceView>;
  /** Records written without the adapter (a store's own extraction), read as an untrusted view. */
  readNative?(propositionId: string): Promise<EvidenceView>;
  /** Everything the store holds for a proposition, as raw JSON: lets the suite tell INGEST_LOSS from ADAPTER_MAP_LOSS. */
  rawRecords?(propositionId: string): Promise<unknown>;
  /** Releases clients, servers and temp files. */
  close?(): Promise<void>;
}

/** What the suite may exercise; each flag switches one family of checks on. */
export interface AdapterCapabilities {
  /** The adapter implements `search` (checked for RETRIEVAL_LOSS). */
  search: boolean;
  /** The adapter keeps the snapshot-store contract (STORES.md §1): checked with the cross-store agreement sequence. */
  snapshots?: boolean;
  /** The adapter implements `readNative` and the subject can plant native records. */
  nativeRecords: boolean;
  /**
   * The key of `adapter_meta` the adapter writes its own read annotations under (scores,
   * store notes); ignored by the diff. Everything else in `adapter_meta` must round-trip.
   */
  metaNamespace?: string;
}

/** Plants a record the way the store's own pipeline would (no EWP metadata) for a proposition. */
export type NativeRecordPlanter = (adapter: MemoryAdapter, propositionId: string) => Promise<void>;

/** One adapter under test, as handed to {@link runAdapterConformance}. */
export interface AdapterSubject {
  /** Adapter name used in reports (`mem0-oss`, `zep`, …). */
  name: string;
  /** A fresh, empty adapter (its own temp dir, collection or graph). */
  create(): Promise<MemoryAdapter>;
  capabilities: AdapterCapabilities;
  /** The adapter's expected-loss list (see `ExpectedLossFile`). */
  expectedLoss: import('./loss.js').ExpectedLossFile;
  /** Required when `capabilities.nativeRecords` is on. */
  plantNative?: NativeRecordPlanter;
  /**
   * Does to the stored records what the store's own maintenance does (Mem0 expiry, Zep/Graphiti
   * fact invalidation), outside the adapter. The suite then reads again: the view and its axes must
   * not change; store notes it reports are EXPECTED_DIVERGENCE observations.
   */
  maintain?(adapter: MemoryAdapter, view: EvidenceView): Promise<void>;
  /** Releases what the subject shares between adapters (a local server, a temp dir); called once after the run. */
  dispose?(): Promise<void>;
}
