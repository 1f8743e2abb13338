/**
 * What a table-shaped store (memory, JSON files, SQLite, PostgreSQL, a LangGraph BaseStore) provides to the shared ledger engine:
 * snapshot rows, binding rows, entry rows and the event log, behind one exclusive write transaction.
 * The engine ({@link LedgerEngineStore}) owns every rule; a backend only stores and fetches rows.
 */
import type { PropositionSummary } from './evidence-store.js';
import type { ChainAnchor, StoredChainEntry } from '@ewp/canonical';
import type { Binding, BindingKind } from './snapshot-layout.js';

export type MaybePromise<T> = T | Promise<T>;

/** One stored snapshot. Immutable once inserted. */
export interface SnapshotRow {
  /** Global commit order (1-based, increasing); the latest snapshot of P is its highest `seq`. */
  seq: number;
  proposition_id: string;
  view_id: string;
  /** SHA-256 over the stored head, member refs, record bodies and their sources: detects a flipped byte on read. */
  content_digest: string;
  /** The snapshot this one extends (its members are a delta), or null (members are complete). */
  parent_seq: number | null;
  /** Number of delta steps to a complete member list. */
  depth: number;
  /** JSON text of the snapshot head. */
  head: string;
  /** JSON text of the MemberRef list (a delta when `parent_seq` is set). */
  members: string;
  /** Assertions + evidence + checks in the resolved snapshot. */
  record_count: number;
  /** JSON text: up to five distinct assertion texts. */
  assertion_texts: string;
  /** ISO-8601 UTC commit time. */
  committed_at: string;
}

export type NewSnapshotRow = Omit<SnapshotRow, 'seq'>;

/** What a listing needs of a proposition's latest row (a full {@link SnapshotRow} will do). */
export type ListedSnapshotRow = Pick<SnapshotRow, 'proposition_id' | 'view_id' | 'assertion_texts'>;

/** A binding as stored: its body (the audit checks it against the event that appended it). */
export interface StoredBinding {
  body: string;
}

/** A binding row with its key, as the audit reads it. */
export interface StoredBindingRow extends StoredBinding {
  proposition_id: string;
  kind: BindingKind;
  id: string;
}

export interface BindingRequest {
  kind: BindingKind;
  id: string;
}

/**
 * One stored ledger entry (a non-evidence event). Immutable once inserted; the audit checks it against
 * the `entry_appended` event at `chain_index`.
 */
export interface StoredEntryRow {
  /** Index of the `entry_appended` event that appended it (unique; entries read oldest first by it). */
  chain_index: number;
  kind: string;
  id: string;
  /** EBCJ-1 text of the subject list. */
  subjects: string;
  /** EBCJ-1 text of the body. */
  body: string;
  /** ISO-8601 UTC commit time (informational: no digest covers it). */
  committed_at: string;
}

/** The `(kind, id)` of an entry, as {@link LedgerReader.entryRows} is asked. */
export interface EntryKey {
  kind: string;
  id: string;
}

/**
 * An entry query as the engine hands it to a backend, already checked. An entry matches when its kind
 * is one of `kinds` or starts with one of `prefixes` (both absent: any kind), its subjects include
 * `subject`, its id is `id`, and its `chain_index` is above `afterIndex` (each when given).
 */
export interface EntryRowQuery {
  kinds?: readonly string[];
  /** Namespace prefixes, each ending in `.` (`memory.*` arrives as `memory.`). */
  prefixes?: readonly string[];
  subject?: string;
  id?: string;
  afterIndex?: number;
  beforeIndex?: number;
  /** Newest first: the limit keeps the highest `chain_index` rows, in descending order. */
  newestFirst?: boolean;
  /** At most this many rows, oldest (lowest `chain_index`) first unless `newestFirst`. */
  limit: number;
}

/** Read access; safe without a transaction because committed rows never change. */
export interface LedgerReader {
  findSnapshot(propositionId: string, viewId: string): MaybePromise<SnapshotRow | undefined>;
  latestSnapshot(propositionId: string): MaybePromise<SnapshotRow | undefined>;
  snapshotBySeq(seq: number): MaybePromise<SnapshotRow | undefined>;
  /**
   * Optional: the rows a delta snapshot builds on (its parent, the parent's parent, … up to a complete
   * snapshot), in one round trip. The engine walks `snapshotBySeq` when a backend lacks it.
   */
  snapshotAncestors?(row: SnapshotRow): MaybePromise<SnapshotRow[]>;
  /**
   * Stored bindings of one proposition, keyed by `bindingKey(kind, id)`: every requested one that exists
   * (the map may also hold other bindings of the proposition; callers look keys up, never iterate).
   */
  bindings(propositionId: string, keys: readonly BindingRequest[]): MaybePromise<Map<string, StoredBinding>>;
  /** `(view_id, seq)` of one proposition, oldest first. */
  snapshotIds(propositionId: string): MaybePromise<{ view_id: string; seq: number }[]>;
  /** Latest row of every proposition, newest first, with its snapshot count. */
  latestRows(): MaybePromise<Iterable<{ row: ListedSnapshotRow; snapshots: number }> | AsyncIterable<{ row: ListedSnapshotRow; snapshots: number }>>;
  /** The stored anchor (`{0, zeros}` for a new ledger). */
  chainAnchor(): MaybePromise<ChainAnchor>;
  /** The last stored log entry and its index, if any. */
  chainTail(): MaybePromise<{ index: number; hash: string } | undefined>;
  /** Every log entry, in stored order. */
  chainEntries(): Iterable<StoredChainEntry> | AsyncIterable<StoredChainEntry>;
  /** Every snapshot row, in commit order. */
  allSnapshots(): Iterable<SnapshotRow> | AsyncIterable<SnapshotRow>;
  /** Every binding row. */
  allBindings(): Iterable<StoredBindingRow> | AsyncIterable<StoredBindingRow>;
  /** Stored entries matching `query`, oldest first (a writer also sees the rows it inserted). */
  entries(query: EntryRowQuery): MaybePromise<StoredEntryRow[]>;
  /** The stored entries among `keys`, keyed by `entryKey(kind, id)` (a writer also sees the rows it inserted). */
  entryRows(keys: readonly EntryKey[]): MaybePromise<Map<string, StoredEntryRow>>;
  /** Every entry row (any order). */
  allEntries(): Iterable<StoredEntryRow> | AsyncIterable<StoredEntryRow>;
  /**
   * Optional, for backends that keep the subject index apart from the rows (a table): every
   * `(chain_index, subject)` pair of it, so the audit checks it against the rows' subjects.
   */
  allEntrySubjects?(): Iterable<EntrySubjectRow> | AsyncIterable<EntrySubjectRow>;
}

/** One pair of a backend's entry subject index. */
export interface EntrySubjectRow {
  chain_index: number;
  subject: string;
}

/** Write access inside one exclusive, atomic transaction. */
export interface LedgerWriter extends LedgerReader {
  /**
   * Optional: those of `propositionIds` that have no stored snapshot and no stored binding, in one
   * round trip for a whole batch. The engine skips a view's snapshot and binding lookups when its
   * proposition is one of them (and the transaction has not written it yet).
   */
  unusedPropositions?(propositionIds: readonly string[]): MaybePromise<Set<string>>;
  insertBindings(propositionId: string, rows: readonly Binding[]): MaybePromise<void>;
  /** Insert and return the new row's `seq`. */
  insertSnapshot(row: NewSnapshotRow): MaybePromise<number>;
  /** Insert entry rows (their `(kind, id)` are new to the ledger and to the transaction). */
  insertEntries(rows: readonly StoredEntryRow[]): MaybePromise<void>;
  /** Append entries and replace the anchor. */
  appendChain(entries: readonly StoredChainEntry[], anchor: ChainAnchor): MaybePromise<void>;
}

export interface LedgerBackend {
  /** Run `fn` with read access. */
  read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T>;
  /**
   * Run `fn` inside one exclusive write transaction (other writers, in this process and others, wait);
   * commit when it resolves, roll back when it throws.
   */
  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T>;
  /**
   * Optional, cheaper than reading the event-log anchor: a value that changes whenever another
   * connection (of this or any other process) commits to the ledger. It need not change on this
   * backend's own commits (the engine counts those). `undefined` when the backend cannot say right
   * now (PostgreSQL while its commit listener is not confirmed): the engine then reads the anchor.
   * Values must never equal an anchor text (`length:head`), so a switch between the two ways never
   * reads as "unchanged".
   */
  othersCommits?(): MaybePromise<number | string | undefined>;
  close(): Promise<void>;
}

export type { PropositionSummary };
