import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({ entry: ['src/index.ts', 'src/bin.ts'], dts: { entry: 'src/index.ts' }, splitting: true });
