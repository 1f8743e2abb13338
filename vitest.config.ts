import { defineConfig } from 'vitest/config';

// One run over every package and the conformance suite. The `source` condition resolves
// workspace packages to their TypeScript sources, so tests never depend on a stale build.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    projects: ['packages/*', 'conformance'],
  },
});
