/**
 * The EvidenceStore contract (docs/spec/store-contract.md §1). Stores keep evidence; warrant is
 * computed. Every implementation (memory, JSON files, SQLite, PostgreSQL) passes one shared suite.
 */
import type { Assertion, Conflict, EvidenceItem, EvidenceView, LineageEdge, VerificationCheck } from '@ewp/core';
import type { ChainVerification, VerifyChainOptions } from '@ewp/canonical';

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

/**
 * An event that is not evidence (a memory-layer event, a gate decision, a recovery plan, a key state
 * change), kept in the same ledger as the snapshots, chained in the same hash chain and written in the
 * same transaction (docs/spec/store-contract.md, ledger entries).
 */
export interface LedgerEntryInput {
  /**
   * Namespaced, lowercase: `/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/`, at most 64 characters
   * (`memory.store`, `decision`, `decision.outcome`, `key.state`).
   */
  kind: string;
  /**
   * Unique per kind within the ledger (1 to 256 characters, well-formed UTF-16). Re-appending the
   * identical `(kind, id, subjects, body)` is a no-op (`unchanged`); another body under the same
   * `(kind, id)` is refused with `ImmutableRecordError`, and nothing of the batch is written.
   */
  id: string;
  /** Proposition ids this entry concerns; indexed, so `readEntries({ subject })` is not a scan. Default `[]`. */
  subjects?: readonly string[];
  /** EBCJ-1-safe JSON object: strings, safe integers (or bigints), booleans, null, arrays, objects; no floats. */
  body: Readonly<Record<string, unknown>>;
}

/** A stored ledger entry, as {@link EvidenceStore.readEntries} returns it (a fresh copy each call). */
export interface LedgerEntry {
  kind: string;
  id: string;
  subjects: string[];
  /** Integers beyond the safe range read back as bigints. */
  body: Record<string, unknown>;
  /** Position in the ledger's hash chain (the index of the event that appended it). */
  chain_index: number;
  /** ISO-8601 UTC time the store committed it (informational; not part of the digest). */
  committed_at: string;
}

/** Which entries {@link EvidenceStore.readEntries} returns; every given field must match. */
export interface EntryQuery {
  /** Exact kind(s); a kind ending in `.*` matches its namespace (`memory.*`: every kind starting `memory.`). */
  kind?: string | readonly string[];
  /** Entries whose subjects include it. */
  subject?: string;
  id?: string;
  /** Only entries with `chain_index > afterIndex` (for incremental readers). */
  afterIndex?: number;
  /** Only entries with `chain_index < beforeIndex` (for readers paging back from the newest). */
  beforeIndex?: number;
  /**
   * Newest (highest `chain_index`) first, and the limit keeps the newest: a reader that wants the latest
   * entry of a kind stops at the first page rather than reading the kind's whole history. Default oldest first.
   */
  newestFirst?: boolean;
  /** Default 1000, at most 100000; oldest first unless `newestFirst`. */
  limit?: number;
}

/** Outcome of appending one entry. */
export interface AppendEntryResult {
  status: 'stored' | 'unchanged';
  kind: string;
  id: string;
  /** Index of the event that appended the entry (for `unchanged`, the earlier one). */
  chain_index: number;
}

/** Entries to commit with a snapshot write, in its transaction and after its events. */
export interface EntryWriteOptions {
  entries?: readonly LedgerEntryInput[];
}

/**
 * One write of {@link EvidenceStore.writeBatch}: a snapshot to store (as `put`), or records to append
 * to a proposition's latest snapshot (as `extend`).
 */
export type BatchWrite = { put: unknown } | { extend: string; records: LedgerRecord[]; newViewId?: string };

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
   * (from @ewp/core). Nothing is written on any refusal. `options.entries` are appended in the same
   * transaction, after the snapshot's events (an `unchanged` put still appends new ones; a refused
   * put writes none).
   */
  put(view: unknown, options?: EntryWriteOptions): Promise<PutResult>;
  /**
   * Store several snapshots, and `options.entries` after them, in one transaction: all or nothing.
   * One result per view, in order.
   */
  putMany(views: readonly unknown[], options?: EntryWriteOptions): Promise<PutResult[]>;
  /**
   * Several puts and extends of any propositions, and `options.entries` after them, in one transaction:
   * all or nothing (a write a caller makes of several steps, such as a memory stored with the links it
   * makes). Each write follows the rules of `put` or `extend` and sees the writes before it. Every input
   * is decoded before the transaction starts. One result per write, in order.
   */
  writeBatch(writes: readonly BatchWrite[], options?: EntryWriteOptions): Promise<PutResult[]>;
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
   * replaces its status and note. Missing proposition → `MissingViewError`. `options.entries` are
   * appended in the same transaction, after the snapshot's events.
   */
  extend(propositionId: string, records: LedgerRecord[], options?: { newViewId?: string } & EntryWriteOptions): Promise<PutResult>;
  /**
   * Append entries with no snapshot, in one transaction, each as one `entry_appended` chain event.
   * Bad input → `InvalidEntryError` naming the field; another body under a stored `(kind, id)` →
   * `ImmutableRecordError`; nothing is written on any refusal.
   */
  appendEntries(entries: readonly LedgerEntryInput[]): Promise<AppendEntryResult[]>;
  /** Stored entries matching `query`, oldest (lowest `chain_index`) first. */
  readEntries(query?: EntryQuery): Promise<LedgerEntry[]>;
  /** Propositions, newest commit first, filtered by `query` and cut at `limit` (default 50). */
  listPropositions(query?: ListPropositionsQuery): Promise<PropositionSummary[]>;
  /** Snapshots of one proposition, oldest first. */
  listSnapshots(propositionId: string): Promise<SnapshotSummary[]>;
  /**
   * Verify the event log from its genesis entry against the stored anchor and, for stores that
   * keep rows, every row against the event that committed it. Reports the first bad index; never repairs.
   */
  verifyChain(options?: VerifyChainOptions): Promise<ChainVerification>;
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
