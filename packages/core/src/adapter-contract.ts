/**
 * The contract of a memory-store adapter as the shared loss-report suite drives it, and the loss
 * classes of docs/spec/loss-classes.md. Types only (the suite lives in the test package
 * @ewp/conformance); here so an adapter's published subjects name only published types.
 */
import type { EvidenceView } from '@ewp/spec';

/** Why a round trip differs from what was written (docs/spec/loss-classes.md). */
export type LossClass =
  /** The store did not keep something it was given. */
  | 'INGEST_LOSS'
  /** The store has it; the mapping back to a view lost it. */
  | 'ADAPTER_MAP_LOSS'
  /** The view read back gives different normative axes. */
  | 'WARRANT_MISMATCH'
  /** A search returned less and the view did not say DEGRADED. */
  | 'RETRIEVAL_LOSS'
  /** The store's own "current" fact differs from the warrant: an observation, never a failure. */
  | 'EXPECTED_DIVERGENCE';

/** One entry of an expected-loss file. `fixture` may be `*` (every fixture). */
export interface ExpectedLoss {
  class: LossClass;
  fixture: string;
  field: string;
  /** Why the store or the mapping cannot keep it. */
  reason: string;
}

/** The per-adapter expected-loss file (`expected-loss/<adapter>.json` beside the adapter); it may only shrink. */
export interface ExpectedLossFile {
  adapter: string;
  losses: ExpectedLoss[];
}

/**
 * What the suite drives: the EvidenceStore calls `put` and `get` (an adapter is an EvidenceStore, or
 * is wrapped as one by its subject), plus what the store can do beyond the ledger.
 */
export interface MemoryAdapter {
  /** Stores a view as a snapshot; invalid views and different content under an existing id are refused. */
  put(view: unknown): Promise<unknown>;
  /** The latest snapshot, or exactly `viewId`; `undefined` when absent. Refuses rather than return a partial view. */
  get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined>;
  /** A store search scoped to one proposition; a subset of the records must come back `DEGRADED`. */
  search?(propositionId: string, query: string, options?: { limit?: number; viewId?: string }): Promise<EvidenceView>;
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
  /** The adapter keeps the snapshot-store contract: checked with the cross-store agreement sequence. */
  snapshots?: boolean;
  /** The adapter implements `readNative` and the subject can plant native records. */
  nativeRecords: boolean;
  /**
   * The key of `adapter_meta` the adapter writes its own read annotations under (scores, store
   * notes); ignored by the diff. Everything else in `adapter_meta` must round-trip.
   */
  metaNamespace?: string;
}

/** Plants a record the way the store's own pipeline would (no EWP metadata) for a proposition. */
export type NativeRecordPlanter = (adapter: MemoryAdapter, propositionId: string) => Promise<void>;

/** One adapter under test, as handed to the loss-report suite and `ewp conformance`. */
export interface AdapterSubject {
  /** Adapter name used in reports (`mem0-oss`, `zep`, …). */
  name: string;
  /** A fresh, empty adapter (its own temp dir, collection or graph). */
  create(): Promise<MemoryAdapter>;
  capabilities: AdapterCapabilities;
  /** The adapter's expected-loss list. */
  expectedLoss: ExpectedLossFile;
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

/**
 * A store's own judgement about one of its records (a Mem0 expiry or update, a Zep fact's
 * `invalid_at`), kept in `adapter_meta[<namespace>].store_notes`: store-local, never part of warrant.
 */
export interface StoreNote {
  /** The store's id of the record (a memory id, a fact uuid). */
  id: string;
  note: string;
}
