import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { NODE22_PROJECTS } from './scripts/node-lanes.mjs';

// One run over every package and the conformance suite; each project's own vitest.config.ts
// (built from vitest.shared.ts) resolves workspace packages to their sources. The projects that
// need Node 22 run in the Node lanes (scripts/test-node-lane.mjs), not here.
export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine, while many test
    // files wait on child processes, PostgreSQL or the disk. At least two (docs/releasing.md, "CI time").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['packages/*', 'conformance', ...NODE22_PROJECTS.map((dir) => `!${dir}`)],
  },
});
