import { createRequire } from 'node:module';
import { defineProject } from 'vitest/config';

// Resolve workspace packages to their TypeScript sources (the `source` export condition),
// so tests never run against a stale build.
const conditions = ['source', 'import', 'module', 'node', 'default'];

// eventsource-parser (used by the MCP SDK's HTTP client) also publishes a `source` condition,
// pointing at .ts files Node cannot load: pin it to its built ESM files.
const sdkRequire = createRequire(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/client/streamableHttp.js'));
const eventsourceParser = (subpath: string) => sdkRequire.resolve(`eventsource-parser${subpath}`).replace(/\.cjs$/, '.js');

export default defineProject({
  // The inlined SDK ships source maps without sources; vite would warn once per file.
  logLevel: 'error',
  resolve: {
    conditions,
    alias: [
      { find: /^eventsource-parser\/stream$/, replacement: eventsourceParser('/stream') },
      { find: /^eventsource-parser$/, replacement: eventsourceParser('') },
    ],
  },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    // Inlined so the alias above applies to the SDK's own imports.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/] } },
  },
});
