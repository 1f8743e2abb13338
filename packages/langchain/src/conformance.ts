/**
 * WarrantedStore as a subject of the shared adapter suite (`@ewp/conformance/adapter-suite`; the
 * contract types come from @ewp/core),
 * used by this package's tests and by `ewp conformance --module @ewp/langchain/conformance`.
 * The inner store is LangGraph's InMemoryStore, and also the official PostgresStore when
 * `EWP_LANGGRAPH_PG_URL` names a PostgreSQL database (each run in its own schema).
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import type { AdapterSubject, EvidenceView, ExpectedLossFile, MemoryAdapter } from '@ewp/core';
import { type BaseStore, InMemoryStore } from '@langchain/langgraph';
import { WarrantedStore } from './store/warranted-store.js';

/** A kind of inner BaseStore to run the wrapper on. */
export interface InnerStoreKind {
  /** Short name used in subject names and expected-loss files (`inmemory`, `postgres`). */
  name: string;
  persistent: boolean;
  /** Whether `search([])` (everything) is supported; PostgresStore refuses an empty prefix. */
  searchesEverything: boolean;
  /** A fresh, empty store; `reopen` gives a second handle on the same data (persistent kinds). */
  create(): Promise<{ store: BaseStore; reopen: () => Promise<BaseStore>; dispose: () => Promise<void> }>;
}

export const inMemoryStoreKind: InnerStoreKind = {
  name: 'inmemory',
  persistent: false,
  searchesEverything: true,
  async create() {
    const store = new InMemoryStore();
    return { store, reopen: async () => store, dispose: async () => {} };
  },
};

let schemaCounter = 0;

/** The official PostgresStore (`@langchain/langgraph-checkpoint-postgres`) on `url`, one schema per store. */
export function postgresStoreKind(url: string): InnerStoreKind {
  return {
    name: 'postgres',
    persistent: true,
    searchesEverything: false,
    async create() {
      const { PostgresStore } = await import('@langchain/langgraph-checkpoint-postgres/store');
      const { default: pg } = await import('pg');
      schemaCounter += 1;
      const schema = `ewp_lc_${process.pid}_${schemaCounter}_${Date.now() % 100000}`;
      const handles: Array<{ stop(): Promise<void> }> = [];
      const open = async () => {
        const store = PostgresStore.fromConnString(url, { schema, ensureTables: true });
        await store.setup();
        handles.push(store);
        return store as unknown as BaseStore;
      };
      const store = await open();
      return {
        store,
        reopen: open,
        dispose: async () => {
          for (const h of handles) await h.stop();
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await client.end();
        },
      };
    },
  };
}

const NATIVE_NAMESPACE = ['native', 'memories'];

/** The suite's view of a WarrantedStore: snapshots through `store.ledger`, searches within one snapshot. */
class WarrantedStoreAdapter implements MemoryAdapter {
  constructor(
    readonly store: WarrantedStore,
    private readonly dispose: () => Promise<void>,
  ) {}
  put(view: unknown): Promise<unknown> {
    return this.store.ledger.put(view);
  }
  get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined> {
    return this.store.ledger.get(propositionId, viewId);
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

/** WarrantedStore over one kind of inner store, as an adapter-suite subject (`langgraph-<kind>`). */
export function warrantedStoreSubject(kind: InnerStoreKind): AdapterSubject {
  const name = `langgraph-${kind.name}`;
  return {
    name,
    capabilities: { search: true, nativeRecords: true },
    expectedLoss: expectedLoss(name),
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

/** The subjects `ewp conformance` runs: InMemoryStore, plus PostgresStore when `EWP_LANGGRAPH_PG_URL` is set. */
export function conformanceSubjects(): AdapterSubject[] {
  const url = process.env.EWP_LANGGRAPH_PG_URL;
  return [warrantedStoreSubject(inMemoryStoreKind), ...(url ? [warrantedStoreSubject(postgresStoreKind(url))] : [])];
}
