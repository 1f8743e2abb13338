import { defineProject } from 'vitest/config';

// Resolve workspace packages to their TypeScript sources (the `source` export condition), so tests
// never run against a stale build. Only `source` is added: listing `import` as well makes pg's CommonJS
// `require('pg-pool')` load pg-pool's ESM build ("Class extends value [object Module]").
const conditions = ['source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
