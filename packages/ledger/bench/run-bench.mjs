// Bundles bench/store-bench.ts from the TypeScript sources (workspace packages through their `source`
// condition, so no build is needed and no stale dist is measured) and runs it.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'node_modules', '.cache', 'bench', 'store-bench.mjs');
mkdirSync(dirname(out), { recursive: true });
await build({
  entryPoints: [join(here, 'store-bench.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['source'],
  external: ['better-sqlite3', 'pg'],
  outfile: out,
  logLevel: 'error',
});
const env = { ...process.env, EWP_BENCH_OUT: process.env.EWP_BENCH_OUT ?? join(here, '..', '..', '..', 'bench', 'results', 'json-file-store.json') };
const result = spawnSync(process.execPath, ['--max-old-space-size=6144', out, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
