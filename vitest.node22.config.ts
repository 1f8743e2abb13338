import { defineConfig } from 'vitest/config';
import { NODE22_PROJECTS } from './scripts/node22-lane.mjs';

// The Node 22 lane (scripts/test-node22.mjs): only the projects that need Node 22.
export default defineConfig({
  test: {
    projects: NODE22_PROJECTS,
  },
});
