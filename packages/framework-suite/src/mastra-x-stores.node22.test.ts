/**
 * The Mastra entry points over every store of the one list, in the Node 22 lane. The SQLite store runs
 * on the built-in node:sqlite here; offline Mem0 needs better-sqlite3 built for this Node (the lane
 * builds it): without that build it is skipped, saying why.
 */
import { afterAll, describe, it } from 'vitest';
import { mem0SqliteUnavailable } from './mem0-native.js';
import { runMastraConformance } from './mastra-suite.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

const unavailable = mem0SqliteUnavailable();

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES) {
  if (unavailable !== undefined && factory.name === 'mem0-oss') {
    describe(`mastra over ${factory.name}`, () => {
      it.skip(`skipped: mem0ai's better-sqlite3 is not built for ${process.version} (${unavailable})`, () => undefined);
    });
    continue;
  }
  runMastraConformance(factory);
}
