import { defineProject } from 'vitest/config';

// Resolve workspace packages to their TypeScript sources (the `source` export condition),
// so tests never run against a stale build.
const conditions = ['source', 'import', 'module', 'node', 'default'];
// Vitest passes the SSR conditions to Node as `--conditions`; with `import` among them,
// CommonJS `require` (pg → pg-pool) would load ESM builds. Vite adds import/require itself.
const ssrConditions = ['source', 'node', 'default'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions: ssrConditions, externalConditions: ssrConditions } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
