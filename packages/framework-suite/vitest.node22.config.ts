import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { workspaceSources } from '../../vitest.shared.js';

// The Node 22 lane's part of the suite (scripts/node-lanes.mjs): the Mastra entry points over every
// store. Its own include list (ewpProject's would be merged in, adding the Node 20 tests).
export default defineProject({
  plugins: [workspaceSources],
  test: {
    name: '@ewp/framework-suite (node 22)',
    include: ['src/**/*.node22.test.ts'],
    testTimeout: 300_000,
    setupFiles: [fileURLToPath(new URL('../../vitest.setup.ts', import.meta.url))],
  },
});
