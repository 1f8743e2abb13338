/**
 * The EvidenceStore contract (docs/spec/store-contract.md §1). Stores keep evidence; warrant is
 * computed. Every implementation (memory, JSON files, SQLite, PostgreSQL) passes one shared suite.
 */
import type { Assertion, Conflict, EvidenceItem, EvidenceView, LineageEdge, VerificationCheck } from '@ewp/core';
import type { ChainVerification } from '@ewp/canonical';

/** What a store can do; the shared suite switches checks on these flags. */
export interface StoreCapabilities {
  /** Survives a process restart. */
  persistent: boolean;
  /** Safe for several OS processes writing at once. */
  multiProcess: boolean;
  /** Keeps `adapter_meta` across a round trip. */
  keepsAdapterMeta: boolean;
  /**
   * Every write (`put`, `putMany`, `extend`) is one atomic transaction of the backend: a crash or a
   * refusal leaves nothing of it behind. False for stores without transactions (Mem0, Zep, a LangGraph
   * `BaseStore` batch), which rely on the engine's commit records instead: a snapshot exists once its
   * commit record is written.
   */
  transactional: boolean;
}

/** Outcome of a write: a new snapshot, or an identical re-put (a no-op). */
export interface PutResult {
  status: 'stored' | 'unchanged';
  proposition_id: string;
  view_id: string;
}

/**
 * One record appended by {@link EvidenceStore.extend}. The record is decoded and validated like the
 * matching view field (docs/spec/protocol.md §4), so wire JSON is accepted as well as decoded records; defaults apply
 * (a record's `proposition_id` defaults to the proposition being extended).
 */
export type LedgerRecord =
  | { kind: 'assertion'; record: Assertion | RawRecord }
  | { kind: 'evidence'; record: EvidenceItem | RawRecord }
  | { kind: 'check'; record: VerificationCheck | RawRecord }
  | { kind: 'conflict'; record: Conflict | RawRecord }
  | { kind: 'lineage'; record: LineageEdge | RawRecord };

/** A record as JSON, before decoding. */
export type RawRecord = Readonly<Record<string, unknown>>;

export interface PropositionSummary {
  proposition_id: string;
  latest_view_id: string;
  /** Up to five distinct assertion texts of the latest snapshot. */
  assertions: string[];
  snapshots: number;
}

export interface SnapshotSummary {
  view_id: string;
  /** Commit order, 0-based, per proposition. */
  seq: number;
}

export interface ListPropositionsQuery {
  /** Case-insensitive substring of the id or of an assertion text. */
  query?: string;
  /** Default 50. */
  limit?: number;
}

/**
 * An append-only evidence ledger with immutable `(proposition_id, view_id)` snapshots.
 * Every method that writes is one transaction; every write event is appended to a hash chain.
 */
export interface EvidenceStore {
  readonly capabilities: StoreCapabilities;
  /**
   * Store a snapshot. The input is decoded and validated first (a JS value or a decoded view);
   * a missing `view_id` becomes the derived id (docs/spec/protocol.md §8). Identical re-put (canonical content, which
   * leaves `adapter_meta` out) → `unchanged`; a different snapshot under an existing id, or a record
   * id reused for other content → `ImmutableRecordError`. Invalid input → `InvalidEvidenceView`
   * (from @ewp/core). Nothing is written on any refusal.
   */
  put(view: unknown): Promise<PutResult>;
  /**
   * Latest committed snapshot, or exactly `viewId`; `undefined` when absent. A fresh copy each call.
   * Stored data that fails its digest → `StoreUnavailableError` (`damaged`).
   */
  get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined>;
  /**
   * Append records to the latest snapshot and commit the result as a new snapshot (named
   * `options.newViewId`, else the derived id), atomically: concurrent extenders, in any process,
   * never lose each other's records. A record already in the snapshot with the same content is
   * skipped; other content under its id → `ImmutableRecordError`; a conflict with a known id
   * replaces its status and note. Missing proposition → `MissingViewError`.
   */
  extend(propositionId: string, records: LedgerRecord[], options?: { newViewId?: string }): Promise<PutResult>;
  /** Propositions, newest commit first, filtered by `query` and cut at `limit` (default 50). */
  listPropositions(query?: ListPropositionsQuery): Promise<PropositionSummary[]>;
  /** Snapshots of one proposition, oldest first. */
  listSnapshots(propositionId: string): Promise<SnapshotSummary[]>;
  /**
   * Verify the event log from its genesis entry against the stored anchor and, for stores that
   * keep rows, every row against the event that committed it. Reports the first bad index; never repairs.
   */
  verifyChain(): Promise<ChainVerification>;
  /**
   * The ledger's revision: a text that changes whenever a snapshot is committed, by this or any other
   * process on the same ledger. Two equal revisions read in turn from this store mean nothing was
   * committed between them, so a caller may keep what it derived from the contents until the
   * revision changes (revisions of two store handles are not comparable). Optional: a store without
   * it offers no such check.
   */
  revision?(): Promise<string>;
  /** Release the store; later calls → `StoreUnavailableError` (`closed`). */
  close(): Promise<void>;
}
