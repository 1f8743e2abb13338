import { ewpProject } from '../../vitest.shared.js';

export default ewpProject();
