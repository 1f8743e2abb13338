import { ewpProject } from '../../vitest.shared.js';

// A Mastra agent run costs tens of milliseconds: the tool contract's thousand calls need more than the default minute.
export default ewpProject({ test: { testTimeout: 300_000 } });
