import { ewpProject } from '../../vitest.shared.js';

// The Mastra part needs Node 22: it runs in the Node 22 lane (vitest.node22.config.ts), not here.
export default ewpProject({ test: { exclude: ['**/node_modules/**', 'src/**/*.node22.test.ts'] } });
