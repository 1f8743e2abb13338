import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({ entry: ['src/index.ts', 'src/memory/index.ts'] });
