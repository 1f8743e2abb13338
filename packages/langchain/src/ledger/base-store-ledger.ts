/**
 * An EvidenceStore kept inside any LangGraph BaseStore (InMemoryStore, PostgresStore, …): the
 * shared ledger engine of @ewp/ledger (immutable snapshots, stable ids, atomic extend, the
 * hash-chained event log) on the commit-record protocol, one BaseStore item per record
 * ({@link BaseStoreRecordStore}). Snapshots keep every field, `adapter_meta` included, so a round
 * trip is lossless.
 */
import { InvalidArgumentError } from '@ewp/core';
import { CommitRecordEvidenceStore, type CommitRecordEvidenceStoreOptions } from '@ewp/ledger';
import type { BaseStore } from '@langchain/langgraph';
import { BaseStoreRecordStore } from './base-store-record-store.js';

/** The default namespace root that holds EWP records. */
export const DEFAULT_EWP_NAMESPACE = 'ewp';

export interface BaseStoreLedgerOptions {
  /** Namespace root for EWP records (default `ewp`). */
  namespaceRoot?: string;
  /** Whether the inner store survives a restart (PostgresStore: true). Default false. */
  persistent?: boolean;
  /** Tuning of the commit-record protocol. */
  protocol?: Pick<CommitRecordEvidenceStoreOptions, 'maxAttempts' | 'visibilityTimeoutMs' | 'staleClaimMs' | 'readOnly'>;
}

/**
 * `EvidenceStore` (`@ewp/ledger`) over a LangGraph `BaseStore`. Writers in this process take turns; writers in
 * other processes (one PostgresStore shared by several) are settled by the protocol's claims.
 */
export class BaseStoreLedger extends CommitRecordEvidenceStore {
  /** The namespace root holding EWP records. */
  readonly namespaceRoot: string;

  constructor(inner: BaseStore, options: BaseStoreLedgerOptions = {}) {
    const root = options.namespaceRoot ?? DEFAULT_EWP_NAMESPACE;
    if (typeof root !== 'string' || root === '' || root.includes('.')) {
      throw new InvalidArgumentError('namespaceRoot', `must be a non-empty namespace label without ".", got ${JSON.stringify(root)}`);
    }
    super(new BaseStoreRecordStore(inner, root), {
      ...options.protocol,
      persistent: options.persistent ?? false,
      label: 'langgraph',
      metaNamespace: '@ewp/langchain',
    });
    this.namespaceRoot = root;
  }
}
