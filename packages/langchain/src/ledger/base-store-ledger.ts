/**
 * An EvidenceStore kept inside any LangGraph BaseStore (InMemoryStore, PostgresStore, …): the
 * shared ledger engine of @ewp/ledger (immutable snapshots, stable ids, atomic extend, the
 * hash-chained event log) over {@link BaseStoreLedgerBackend}. Snapshots keep every field,
 * `adapter_meta` included, so a round trip is lossless.
 */
import { LedgerEngineStore } from '@ewp/ledger';
import type { BaseStore } from '@langchain/langgraph';
import { BaseStoreLedgerBackend } from './base-store-backend.js';

/** The default namespace root that holds EWP records. */
export const DEFAULT_EWP_NAMESPACE = 'ewp';

export interface BaseStoreLedgerOptions {
  /** Namespace root for EWP records (default `ewp`). */
  namespaceRoot?: string;
  /** Whether the inner store survives a restart (PostgresStore: true). Default false. */
  persistent?: boolean;
}

/**
 * {@link EvidenceStore} over a LangGraph `BaseStore`. Writes from this process are serialized;
 * several processes writing through one PostgresStore are not (`multiProcess: false`).
 */
export class BaseStoreLedger extends LedgerEngineStore {
  /** The namespace root holding EWP records. */
  readonly namespaceRoot: string;

  constructor(inner: BaseStore, options: BaseStoreLedgerOptions = {}) {
    const root = options.namespaceRoot ?? DEFAULT_EWP_NAMESPACE;
    if (typeof root !== 'string' || root === '' || root.includes('.')) {
      throw new TypeError(`namespaceRoot: must be a non-empty namespace label without ".", got ${JSON.stringify(root)}`);
    }
    super(new BaseStoreLedgerBackend(inner, root), {
      persistent: options.persistent ?? false,
      multiProcess: false,
      keepsAdapterMeta: true,
    });
    this.namespaceRoot = root;
  }
}
