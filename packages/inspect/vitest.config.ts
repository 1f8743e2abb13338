import { ewpProject } from '../../vitest.shared.js';

// Browser tests drive a real chromium; give them room on a 2-core machine.
export default ewpProject({ test: { testTimeout: 120_000, hookTimeout: 120_000 } });
