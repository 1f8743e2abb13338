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

export interface StoreUnderTest {
  put(view: unknown): Promise<StorePutResult>;
  get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined>;
  extend(
    propositionId: string,
    records: { kind: 'assertion' | 'evidence' | 'check' | 'conflict' | 'lineage'; record: unknown }[],
    options?: { newViewId?: string },
  ): Promise<StorePutResult>;
  listPropositions(query?: {
    query?: string;
    limit?: number;
  }): Promise<{ proposition_id: string; latest_view_id: string; assertions: string[]; snapshots: number }[]>;
  listSnapshots(propositionId: string): Promise<{ view_id: string; seq: number }[]>;
  verifyChain(): Promise<ChainVerification>;
  close(): Promise<void>;
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
  /** Remove what `create` made (files, schemas); called after `close`. */
  destroy?: (store: S) => Promise<void>;
}
