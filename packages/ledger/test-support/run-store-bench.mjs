/**
 * Bundles `<package>/bench/store-bench.ts` from the TypeScript sources (no stale dist is measured)
 * and runs it with a large heap, writing to EWP_BENCH_OUT or `bench/results/<resultFile>`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleFromSources } from './bundle-from-sources.mjs';

/** Run the store bench in `benchDir`; exits the process with the bench's status. */
export async function runStoreBench(benchDir, resultFile) {
  const out = await bundleFromSources(join(benchDir, 'store-bench.ts'), join(benchDir, '..', 'node_modules', '.cache', 'bench', 'store-bench.mjs'), 'error');
  const env = { ...process.env, EWP_BENCH_OUT: process.env.EWP_BENCH_OUT ?? join(benchDir, '..', '..', '..', 'bench', 'results', resultFile) };
  const result = spawnSync(process.execPath, ['--max-old-space-size=6144', out, ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}
