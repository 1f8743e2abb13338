// The vitest projects that need Node 22 (a dependency declares `engines.node >= 22`): the Node 22 lane
// (scripts/test-node22.mjs) runs exactly these under the npm registry's `node@22`, and the root
// vitest.config.ts leaves them out of the main run on the machine's Node. To add one, append its
// folder (a workspace package with its own vitest.config.ts), or a config file of a package whose other
// tests stay on the machine's Node (packages/framework-suite/vitest.node22.config.ts). @ewp/sqlite runs in
// both: on the machine's Node over better-sqlite3, here over the built-in node:sqlite.
export const NODE22_PROJECTS = [
  'packages/ai-sdk-v7-test',
  'packages/mastra',
  'packages/framework-suite/vitest.node22.config.ts',
  'packages/sqlite/vitest.node22.config.ts',
];
