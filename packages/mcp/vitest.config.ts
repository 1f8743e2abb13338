import { defineProject } from 'vitest/config';

// Resolve workspace packages to their TypeScript sources (the `source` export condition),
// so tests never run against a stale build.
const conditions = ['source', 'import', 'module', 'node', 'default'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
