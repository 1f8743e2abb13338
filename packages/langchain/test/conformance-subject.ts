/**
 * WarrantedStore as a subject of the shared adapter suite (@ewp/conformance/adapter-suite), over
 * an InMemoryStore and over the official PostgresStore on the local server.
 */
import { readFileSync } from 'node:fs';
import type { AdapterSubject, ExpectedLossFile, MemoryAdapter } from '@ewp/conformance/adapter-suite';
import type { EvidenceView } from '@ewp/core';
import { MissingViewError } from '@ewp/ledger';
import { WarrantedStore } from '../src/store/warranted-store.js';
import type { InnerStoreKind } from './inner-stores.js';

const NATIVE_NAMESPACE = ['native', 'memories'];

class WarrantedStoreAdapter implements MemoryAdapter {
  constructor(
    readonly store: WarrantedStore,
    private readonly dispose: () => Promise<void>,
  ) {}
  async write(view: EvidenceView): Promise<void> {
    await this.store.ledger.put(view);
  }
  async read(propositionId: string, options: { viewId?: string } = {}): Promise<EvidenceView> {
    const view = await this.store.ledger.get(propositionId, options.viewId);
    if (view === undefined) throw new MissingViewError(propositionId, options.viewId);
    return view;
  }
  search(propositionId: string, query: string, options: { limit?: number; viewId?: string } = {}): Promise<EvidenceView> {
    return this.store.searchView(propositionId, query, options);
  }
  readNative(propositionId: string): Promise<EvidenceView> {
    return this.store.readUnrecorded(NATIVE_NAMESPACE, propositionId);
  }
  async close(): Promise<void> {
    await this.dispose();
  }
}

function expectedLoss(name: string): ExpectedLossFile {
  return JSON.parse(readFileSync(new URL(`../expected-loss/${name}.json`, import.meta.url), 'utf8')) as ExpectedLossFile;
}

export function warrantedStoreSubject(kind: InnerStoreKind, lossFile: string): AdapterSubject {
  return {
    name: `langgraph-${kind.name}`,
    capabilities: { search: true, nativeRecords: true },
    expectedLoss: expectedLoss(lossFile),
    // What an agent writing around the wrapper leaves: plain items, no EWP records.
    async plantNative(adapter, propositionId) {
      const { store } = adapter as WarrantedStoreAdapter;
      await store.inner.put(NATIVE_NAMESPACE, 'n1', { text: 'The deploy pipeline uses blue-green releases', proposition_id: propositionId });
      await store.inner.put(NATIVE_NAMESPACE, 'n2', { text: 'The staging database was migrated', proposition_id: propositionId });
    },
    async create() {
      const { store, dispose } = await kind.create();
      return new WarrantedStoreAdapter(new WarrantedStore(store, { persistent: kind.persistent, origin: 'extract' }), dispose);
    },
  };
}
