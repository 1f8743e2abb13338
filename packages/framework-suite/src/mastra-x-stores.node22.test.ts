/**
 * The Mastra entry points over every store of the one list, in the Node 22 lane. Stores built on
 * better-sqlite3 (SQLite, offline Mem0) need its native addon, which the workspace builds for the
 * machine's Node: where that binary does not load under this Node, they are skipped and say why.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, it } from 'vitest';
import { runMastraConformance } from './mastra-suite.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

/** Why better-sqlite3 cannot open a database under this Node, or undefined when it can. */
function sqliteUnavailable(): string | undefined {
  try {
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
}

const NATIVE_STORES = new Set(['sqlite', 'mem0-oss']);
const unavailable = sqliteUnavailable();

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES) {
  if (unavailable !== undefined && NATIVE_STORES.has(factory.name)) {
    describe(`mastra over ${factory.name}`, () => {
      it.skip(`skipped: better-sqlite3 was built for another Node (${process.version}: ${unavailable})`, () => undefined);
    });
    continue;
  }
  runMastraConformance(factory);
}
