/**
 * The in-memory EvidenceStore: the full contract (immutable snapshots, stable ids, atomic extend,
 * the hash-chained event log) in one process, for tests, examples and short-lived agents.
 */
import type { StoreCapabilities } from './evidence-store.js';
import { LedgerEngineStore } from './ledger-engine.js';
import { MemoryLedgerBackend } from './memory-backend.js';

export interface MemoryEvidenceStoreOptions {
  /** Refuse every write with `StoreUnavailableError` (`read_only`). */
  readOnly?: boolean;
}

/**
 * An EvidenceStore held in process memory. Nothing survives the process; `keepsAdapterMeta` is true.
 *
 * @example
 * const store = new MemoryEvidenceStore();
 * await store.put(view);
 * const latest = await store.get(view.proposition_id);
 */
export class MemoryEvidenceStore extends LedgerEngineStore {
  static readonly CAPABILITIES: StoreCapabilities = Object.freeze({ persistent: false, multiProcess: false, keepsAdapterMeta: true, transactional: true });

  /** Rows, for tests that simulate tampering. */
  readonly rows: MemoryLedgerBackend['tables'];

  constructor(options?: MemoryEvidenceStoreOptions) {
    const backend = new MemoryLedgerBackend(options);
    super(backend, MemoryEvidenceStore.CAPABILITIES);
    this.rows = backend.tables;
  }
}
