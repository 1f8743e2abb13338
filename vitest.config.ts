import { defineConfig } from 'vitest/config';

// One run over every package and the conformance suite; each project's own vitest.config.ts
// (built from vitest.shared.ts) resolves workspace packages to their sources.
export default defineConfig({
  test: {
    projects: ['packages/*', 'conformance'],
  },
});
