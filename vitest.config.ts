import { defineConfig } from 'vitest/config';
import { NODE22_PROJECTS } from './scripts/node22-lane.mjs';

// One run over every package and the conformance suite; each project's own vitest.config.ts
// (built from vitest.shared.ts) resolves workspace packages to their sources. The projects that
// need Node 22 run in their own lane (scripts/test-node22.mjs), not here.
export default defineConfig({
  test: {
    projects: ['packages/*', 'conformance', ...NODE22_PROJECTS.map((dir) => `!${dir}`)],
  },
});
