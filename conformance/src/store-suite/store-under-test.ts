/**
 * The shape of the store the suite drives. It mirrors `EvidenceStore` of @ewp/ledger structurally,
 * so this package does not depend on the ledger (which depends on this package for its tests).
 */
import type { ChainVerification } from '@ewp/canonical';
import type { EvidenceView } from '@ewp/core';

export interface StoreCapabilityFlags {
  /** Survives closing and reopening. */
  persistent: boolean;
  /** Safe for several OS processes writing at once (tested by the store's own fault tests). */
  multiProcess: boolean;
  /** Keeps `adapter_meta` across a round trip. */
  keepsAdapterMeta: boolean;
  /** Every write is one atomic transaction of the backing store (false: commit records stand in for it). */
  transactional?: boolean;
}

export interface StorePutResult {
  status: 'stored' | 'unchanged';
  proposition_id: string;
  view_id: string;
}

/** A ledger entry as the suite writes it (`LedgerEntryInput` of @ewp/ledger). */
export interface StoreEntryInput {
  kind: string;
  id: string;
  subjects?: readonly string[];
  body: Readonly<Record<string, unknown>>;
}

/** A ledger entry as a store reads it back (`LedgerEntry` of @ewp/ledger). */
export interface StoreEntry {
  kind: string;
  id: string;
  subjects: string[];
  body: Record<string, unknown>;
  chain_index: number;
  committed_at: string;
}

/** Options of a snapshot write that carry entries. */
export interface StoreEntryOptions {
  entries?: readonly StoreEntryInput[];
}

export interface StoreUnderTest {
  put(view: unknown, options?: StoreEntryOptions): Promise<StorePutResult>;
  putMany(views: readonly unknown[], options?: StoreEntryOptions): Promise<StorePutResult[]>;
  get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined>;
  extend(
    propositionId: string,
    records: { kind: 'assertion' | 'evidence' | 'check' | 'conflict' | 'lineage'; record: unknown }[],
    options?: { newViewId?: string } & StoreEntryOptions,
  ): Promise<StorePutResult>;
  appendEntries(entries: readonly StoreEntryInput[]): Promise<{ status: 'stored' | 'unchanged'; kind: string; id: string; chain_index: number }[]>;
  readEntries(query?: {
    kind?: string | readonly string[];
    subject?: string;
    id?: string;
    afterIndex?: number;
    beforeIndex?: number;
    newestFirst?: boolean;
    limit?: number;
  }): Promise<StoreEntry[]>;
  listPropositions(query?: {
    query?: string;
    limit?: number;
  }): Promise<{ proposition_id: string; latest_view_id: string; assertions: string[]; snapshots: number }[]>;
  listSnapshots(propositionId: string): Promise<{ view_id: string; seq: number }[]>;
  verifyChain(): Promise<ChainVerification>;
  close(): Promise<void>;
}

/**
 * Edits of a store's entry rows behind its back (an attacker with write access to the storage), for
 * the suite's tamper cases. Each changes the stored row only, never the event log.
 */
export interface EntryRowTamper {
  /** Replace the stored body text of the entry `(kind, id)` with `body`. */
  setBody(kind: string, id: string, body: string): Promise<void>;
  /** Delete the stored row of the entry `(kind, id)`. */
  remove(kind: string, id: string): Promise<void>;
  /** Store a copy of the row of `(kind, id)` under `newId` at chain index `chainIndex` (an entry no event appended). */
  copy(kind: string, id: string, newId: string, chainIndex: number): Promise<void>;
}

/** How the suite gets stores. */
export interface StoreConformanceOptions<S extends StoreUnderTest = StoreUnderTest> {
  /** Shown in test names. */
  name: string;
  /** A new, empty store (its own file, directory or schema). */
  create: () => S | Promise<S>;
  capabilities: StoreCapabilityFlags;
  /** Close `store` and open the same ledger again (persistent stores). */
  reopen?: (store: S) => Promise<S>;
  /** Open the ledger behind `store` read-only (a second handle; `store` stays open). */
  openReadOnly?: (store: S) => Promise<S>;
  /** A second writable handle on the ledger behind `store` (another connection, as another process would open). */
  openSecond?: (store: S) => Promise<S>;
  /** Row access for the entry tamper cases (stores whose rows the test can reach). */
  tamperEntries?: (store: S) => EntryRowTamper | Promise<EntryRowTamper>;
  /** Remove what `create` made (files, schemas); called after `close`. */
  destroy?: (store: S) => Promise<void>;
}
