import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({ entry: ['src/index.ts', 'src/gate.ts', 'src/write-path.ts', 'src/testing/index.ts'], external: ['vitest', '@ewp/conformance'] });
