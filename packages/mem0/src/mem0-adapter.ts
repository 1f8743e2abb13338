import type { EvidenceView } from '@ewp/core';
import { CommitRecordEvidenceStore, type CommitRecordEvidenceStoreOptions } from '@ewp/ledger';
import type { Mem0Backend, StoredMemory } from './mem0-backend.js';
import { isLedgerMemory, META, Mem0RecordStore } from './mem0-record-store.js';
import { META_NAMESPACE, nativeView } from './native-memory.js';

/** Options of a Mem0 store: the protocol's tuning (hosted adds are processed in the background: it waits for them). */
export type Mem0AdapterOptions = Pick<CommitRecordEvidenceStoreOptions, 'maxAttempts' | 'visibilityTimeoutMs' | 'staleClaimMs' | 'readOnly'>;

/**
 * An EvidenceStore kept in Mem0: the shared ledger engine on the commit-record protocol, each record
 * one memory (`infer: false`; a claim's memory text is the claim, so Mem0's search finds it). Every
 * store rule (validation, immutable snapshots, stable ids, atomic extend, the hash-chained log) is
 * the engine's; reads verify digests, so a memory deleted or rewritten outside the store makes the
 * read fail (`StoreUnavailableError`, `damaged`) instead of returning a partial view.
 */
export class Mem0EvidenceStore extends CommitRecordEvidenceStore {
  /** The Mem0 client layer (tests and tools read what Mem0 holds besides the ledger). */
  readonly mem0: Mem0Backend;

  constructor(backend: Mem0Backend, options: Mem0AdapterOptions = {}) {
    super(new Mem0RecordStore(backend), { ...options, persistent: true, label: 'mem0', metaNamespace: META_NAMESPACE });
    this.mem0 = backend;
  }

  /**
   * Memories Mem0 wrote on its own, not through the ledger: tagged with P (`ewp_pid`) plus, by
   * default, every memory of the entity with no EWP metadata. Read as untrusted `extract`
   * assertions in a DEGRADED view (see {@link nativeView}); never part of a snapshot.
   */
  async readNative(propositionId: string, options: { includeUnscoped?: boolean } = {}): Promise<EvidenceView> {
    this.ensureOpen();
    const own = (await this.mem0.list({})).filter((m) => !isLedgerMemory(m));
    const chosen = own.filter(
      (m) => m.metadata[META.proposition] === propositionId || (options.includeUnscoped !== false && m.metadata[META.proposition] === undefined),
    );
    return nativeView(propositionId, chosen, this.mem0.kind);
  }

  /** Every memory Mem0 holds for P (ledger records and its own), as returned: for loss classification and debugging. */
  async rawRecords(propositionId: string): Promise<StoredMemory[]> {
    this.ensureOpen();
    return this.mem0.list({ [META.proposition]: propositionId });
  }
}
