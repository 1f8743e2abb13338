import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, defineProject } from 'vitest/config';
import { NODE_LANE_PROJECTS } from './scripts/node-lanes.mjs';
import { workspaceSources } from './vitest.shared.js';

// A Node lane (scripts/test-node-lane.mjs): the projects of scripts/node-lanes.mjs for the Node that runs
// it. A `{ dir, include }` entry becomes a project of just those files, named after its package and
// this Node.
const major = process.versions.node.split('.')[0];
const entries = (NODE_LANE_PROJECTS as Record<string, (string | { dir: string; include: string[] })[]>)[major];
if (entries === undefined) throw new RangeError(`vitest.node-lane.config.ts: no Node lane for Node ${major} (scripts/node-lanes.mjs)`);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  test: {
    projects: entries.map((entry) =>
      typeof entry === 'string'
        ? entry
        : defineProject({
            plugins: [workspaceSources],
            test: {
              name: `${JSON.parse(readFileSync(here(`${entry.dir}/package.json`), 'utf8')).name} (node ${major})`,
              root: here(entry.dir),
              include: entry.include,
              testTimeout: 300_000,
              setupFiles: [here('vitest.setup.ts')],
            },
          }),
    ),
  },
});
