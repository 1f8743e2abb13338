/**
 * The store packages' fault-test workers and benchmarks run as plain node processes, bundled with
 * esbuild from the TypeScript sources (workspace packages resolved through their `@ewp/source`
 * condition), so they need no prior build and never run a stale dist.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** Native drivers stay outside the bundle and load from the package's own node_modules. */
const NATIVE_DRIVERS = ['better-sqlite3', 'pg'];

/** Bundle `entry` (a .ts file) to `outfile`. */
export async function bundleFromSources(entry, outfile, logLevel = 'silent') {
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@ewp/source'],
    external: NATIVE_DRIVERS,
    plugins: [sqliteDriverFromSources],
    outfile,
    logLevel,
  });
  return outfile;
}

/**
 * Bundle a worker from `<package>/test/` into a fresh folder under that package's
 * `node_modules/.cache`, so the worker resolves better-sqlite3/pg like the package does.
 */
export async function bundleWorker(entry) {
  const cache = join(dirname(entry), '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  return bundleFromSources(entry, join(mkdtempSync(join(cache, 'ewp-worker-')), 'worker.mjs'));
}

/**
 * `@ewp/sqlite` loads better-sqlite3 at run time with `createRequire(import.meta.url)` (it is optional), which
 * esbuild leaves as it is: inside a bundle written elsewhere that `import.meta.url` is the bundle's, from
 * where better-sqlite3 does not resolve. This plugin gives the driver module its source file's URL instead,
 * so the bundle resolves the driver as the package itself does.
 */
export const sqliteDriverFromSources = {
  name: 'sqlite-driver-from-sources',
  setup(b) {
    b.onLoad({ filter: /[\\/]sqlite[\\/]src[\\/]sqlite-driver\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const { pathToFileURL } = await import('node:url');
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};
