// Bundles bench/revision-bench.ts from the TypeScript sources and runs it, writing bench/results/postgres-revision.json.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleFromSources } from '../../ledger/test-support/bundle-from-sources.mjs';

const out = await bundleFromSources(
  join(import.meta.dirname, 'revision-bench.ts'),
  join(import.meta.dirname, '..', 'node_modules', '.cache', 'bench', 'revision-bench.mjs'),
  'error',
);
const env = {
  ...process.env,
  EWP_BENCH_OUT: process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'postgres-revision.json'),
};
process.exit(spawnSync(process.execPath, [out], { stdio: 'inherit', env }).status ?? 1);
