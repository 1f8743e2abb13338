import { ewpTsup } from '../../tsup.shared.js';

// `tools` is its own entry: the root stays free of zod (an optional peer only the registry needs).
export default ewpTsup({ entry: ['src/index.ts', 'src/tools/index.ts'], external: ['zod'] });
