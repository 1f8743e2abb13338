// Bundles bench/auto-context.ts from the TypeScript sources (no stale dist is measured) and runs it.
// The bundle goes under @ewp/sqlite's node_modules cache, so better-sqlite3 (kept outside the bundle)
// resolves from the package that owns it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleFromSources } from '../../ledger/test-support/bundle-from-sources.mjs';

const out = await bundleFromSources(
  join(import.meta.dirname, 'auto-context.ts'),
  join(import.meta.dirname, '..', '..', 'sqlite', 'node_modules', '.cache', 'bench', 'auto-context.mjs'),
  'error',
);
const result = spawnSync(process.execPath, ['--max-old-space-size=4096', out, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    EWP_BENCH_OUT: process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'memory-auto-context.json'),
  },
});
process.exit(result.status ?? 1);
