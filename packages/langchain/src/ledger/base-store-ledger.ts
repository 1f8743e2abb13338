/**
 * An EvidenceStore kept inside any LangGraph BaseStore (InMemoryStore, PostgresStore, …): the
 * shared ledger engine of @ewp/ledger (immutable snapshots, stable ids, atomic extend, the
 * hash-chained event log) over {@link BaseStoreLedgerBackend}. Snapshots keep every field,
 * `adapter_meta` included, so a round trip is lossless.
 */
import type { EvidenceView } from '@ewp/core';
import { LedgerEngineStore } from '@ewp/ledger';
import type { BaseStore } from '@langchain/langgraph';
import { BaseStoreLedgerBackend } from './base-store-backend.js';

const LATEST_CACHE_SIZE = 1024;

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
  readonly #backend: BaseStoreLedgerBackend;
  /**
   * Latest snapshots already resolved and verified, by proposition. A snapshot never changes once
   * committed, so an entry is valid exactly while the head still names its view id; a commit from
   * anywhere (another wrapper, another process) moves the head and misses the cache.
   */
  readonly #latest = new Map<string, { view_id: string; view: EvidenceView }>();

  constructor(inner: BaseStore, options: BaseStoreLedgerOptions = {}) {
    const root = options.namespaceRoot ?? DEFAULT_EWP_NAMESPACE;
    if (typeof root !== 'string' || root === '' || root.includes('.')) {
      throw new TypeError(`namespaceRoot: must be a non-empty namespace label without ".", got ${JSON.stringify(root)}`);
    }
    const backend = new BaseStoreLedgerBackend(inner, root);
    super(backend, {
      persistent: options.persistent ?? false,
      multiProcess: false,
      keepsAdapterMeta: true,
      transactional: false,
    });
    this.#backend = backend;
    this.namespaceRoot = root;
  }

  /** As {@link LedgerEngineStore.get}; the latest snapshot is served from a cache keyed by the head. */
  override async get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined> {
    if (viewId !== undefined) return super.get(propositionId, viewId);
    this.ensureOpen();
    const head = await this.#backend.latestHead(propositionId);
    if (head === undefined) return undefined;
    const hit = this.#latest.get(propositionId);
    if (hit?.view_id === head.view_id) return structuredClone(hit.view);
    const view = await super.get(propositionId);
    if (view !== undefined && view.view_id === head.view_id) {
      if (this.#latest.size >= LATEST_CACHE_SIZE) this.#latest.delete(this.#latest.keys().next().value as string);
      this.#latest.set(propositionId, { view_id: view.view_id, view: structuredClone(view) });
    }
    return view;
  }
}
