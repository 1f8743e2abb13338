/**
 * The inner BaseStores the tests run the wrappers on: LangGraph's InMemoryStore and the official
 * PostgresStore (@langchain/langgraph-checkpoint-postgres) on the local PostgreSQL server, each
 * test in its own schema.
 */

import type { BaseStore } from '@langchain/langgraph';
import { InMemoryStore } from '@langchain/langgraph';
import { PostgresStore } from '@langchain/langgraph-checkpoint-postgres/store';
import pg from 'pg';

export const PG_URL = `postgresql://${process.env.PGUSER ?? 'postgres'}@127.0.0.1:5432/test`;

export interface InnerStoreKind {
  name: string;
  persistent: boolean;
  /** Whether `search([])` (everything) is supported; PostgresStore refuses an empty prefix. */
  searchesEverything: boolean;
  /** A fresh, empty store; `reopen` gives a second handle on the same data (persistent kinds). */
  create(): Promise<{ store: BaseStore; reopen: () => Promise<BaseStore>; dispose: () => Promise<void> }>;
}

let schemaCounter = 0;

export const inMemory: InnerStoreKind = {
  name: 'InMemoryStore',
  persistent: false,
  searchesEverything: true,
  async create() {
    const store = new InMemoryStore();
    return { store, reopen: async () => store, dispose: async () => {} };
  },
};

export const postgres: InnerStoreKind = {
  name: 'PostgresStore',
  persistent: true,
  searchesEverything: false,
  async create() {
    schemaCounter += 1;
    const schema = `ewp_lc_${process.pid}_${schemaCounter}_${Date.now() % 100000}`;
    const handles: PostgresStore[] = [];
    const open = async () => {
      const store = PostgresStore.fromConnString(PG_URL, { schema, ensureTables: true });
      await store.setup();
      handles.push(store);
      return store;
    };
    const store = await open();
    return {
      store,
      reopen: open,
      dispose: async () => {
        for (const h of handles) await h.stop();
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    };
  },
};

export const innerStores: InnerStoreKind[] = [inMemory, postgres];
