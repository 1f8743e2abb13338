import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM with declarations and source maps for Node 20; `extra` adds entries or externals. */
export function ewpTsup(extra: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...extra,
  });
}
