import { ewpProject } from '../../vitest.shared.js';

// The Mastra part needs Node 22: it runs in the Node 22 lane (vitest.node22.config.ts), not here. An agent
// runner's thousand tool-contract calls over a slow store (Mem0, Zep through local servers) take minutes.
export default ewpProject({ test: { exclude: ['**/node_modules/**', 'src/**/*.node22.test.ts'], testTimeout: 300_000 } });
