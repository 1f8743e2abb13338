import { ewpTsup } from '../tsup.shared.js';

export default ewpTsup({
  entry: {
    index: 'src/index.ts',
    'oracle/index': 'src/oracle/index.ts',
    'generators/index': 'src/generators/index.ts',
    'store-suite/index': 'src/store-suite/index.ts',
    'adapter-suite/index': 'src/adapter-suite/index.ts',
    'pack/index': 'src/pack/index.ts',
  },
  external: ['vitest'],
});
