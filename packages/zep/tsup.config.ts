import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', conformance: 'src/conformance.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['@getzep/zep-cloud', '@ewp/conformance'],
});
