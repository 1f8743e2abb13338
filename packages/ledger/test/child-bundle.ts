/**
 * Child processes of the fault tests run a worker bundled from the TypeScript sources with esbuild
 * (workspace packages resolved through their `source` condition), so the tests need no prior build
 * and never run a stale dist.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function bundleWorker(entry: string): Promise<string> {
  // Written inside this package's node_modules so the worker resolves better-sqlite3/pg like the package does.
  const cache = join(import.meta.dirname, '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'ewp-worker-')), 'worker.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: [],
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}
