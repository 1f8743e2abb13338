import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({ entry: ['src/index.ts', 'src/conformance.ts', 'src/middleware/warrant-middleware.ts', 'src/memory/index.ts'] });
