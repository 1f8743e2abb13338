import { defineConfig } from 'vitest/config';
import { NODE22_PROJECTS } from './scripts/node-lanes.mjs';

// One run over every package and the conformance suite; each project's own vitest.config.ts
// (built from vitest.shared.ts) resolves workspace packages to their sources. The projects that
// need Node 22 run in the Node lanes (scripts/test-node-lane.mjs), not here.
export default defineConfig({
  test: {
    projects: ['packages/*', 'conformance', ...NODE22_PROJECTS.map((dir) => `!${dir}`)],
  },
});
