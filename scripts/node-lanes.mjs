// What each Node lane (scripts/test-node-lane.mjs) runs, under the npm registry's `node@<major>`
// (scripts/node-runtime.mjs). An entry is a vitest project (a workspace package folder with its own
// vitest.config.ts, or a config file of a package whose other tests stay on the machine's Node), or
// `{ dir, include }`: some test files of a package, run as their own project (vitest.node-lane.config.ts).
//
// Node 22 runs every project that needs Node >= 22 (a dependency declares `engines.node >= 22`); the root
// vitest.config.ts leaves those out of the main run on the machine's Node. To add one, append it to
// NODE22_PROJECTS. @ewp/sqlite runs in both: on the machine's Node over better-sqlite3, in the lanes over
// the built-in node:sqlite.
//
// Node 24 runs what can break from one Node major to the next, not the whole Node 22 list again (CI has
// a time budget): every project that needs Node >= 22 except the Mastra entry points × every store
// (mastra-x-stores.node22.test.ts, a store-independent binding over eight stores, four minutes: Mastra
// itself runs in @ewp/mastra, and each store on this Node in its own suite), the SQLite store on node:sqlite
// whole, and offline Mem0 (mem0ai's better-sqlite3, rebuilt for the lane) through its real-Memory tests
// (not the store suite over Mem0, two minutes of adapter logic the main run covers).
export const NODE22_PROJECTS = [
  'packages/ai-sdk-v7-test',
  'packages/mastra',
  'packages/framework-suite/vitest.node22.config.ts',
  'packages/sqlite/vitest.node22.config.ts',
];

/** The projects of each lane, by Node major (the majors of NODE_LANES in scripts/node-runtime.mjs). */
export const NODE_LANE_PROJECTS = {
  22: NODE22_PROJECTS,
  24: [
    'packages/ai-sdk-v7-test',
    'packages/mastra',
    { dir: 'packages/framework-suite', include: ['src/record-path.node22.test.ts'] },
    'packages/sqlite/vitest.node22.config.ts',
    { dir: 'packages/mem0-testing', include: ['src/oss-memory.test.ts'] },
  ],
};
