import { ewpProject } from '../vitest.shared.js';

// The fuzz and differential suites run minutes on a loaded machine.
export default ewpProject({ test: { testTimeout: 600_000 } });
