import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { workspaceSources } from '../../vitest.shared.js';

// The Node 22 and 24 lanes' run of this package (scripts/node-lanes.mjs): the same store suite, tamper,
// crash and interchange tests, on the built-in node:sqlite driver (the default on Node >= 22.16).
export default defineProject({
  plugins: [workspaceSources],
  test: {
    name: `@ewp/sqlite (node ${process.versions.node.split('.')[0]})`,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 300_000,
    setupFiles: [fileURLToPath(new URL('../../vitest.setup.ts', import.meta.url))],
  },
});
