// Bundles bench/salience-growth.ts from the TypeScript sources (no stale dist is measured) and runs it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleFromSources } from '../../ledger/test-support/bundle-from-sources.mjs';

const out = await bundleFromSources(
  join(import.meta.dirname, 'salience-growth.ts'),
  join(import.meta.dirname, '..', '..', 'sqlite', 'node_modules', '.cache', 'bench', 'salience-growth.mjs'),
  'error',
);
const result = spawnSync(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
