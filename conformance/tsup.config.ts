import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'oracle/index': 'src/oracle/index.ts',
    'generators/index': 'src/generators/index.ts',
    'store-suite/index': 'src/store-suite/index.ts',
    'adapter-suite/index': 'src/adapter-suite/index.ts',
    'pack/index': 'src/pack/index.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['vitest'],
});
