// Bundles bench/echo-measures.ts (or link-cost.ts) from the TypeScript sources and runs it from this
// package's folder, where the bundled code finds the word-vector file (assets/) as @ewp/memory's own.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleFromSources } from '../../ledger/test-support/bundle-from-sources.mjs';

const out = await bundleFromSources(
  join(import.meta.dirname, process.argv[2] === 'link' ? 'link-cost.ts' : 'echo-measures.ts'),
  join(import.meta.dirname, '..', 'node_modules', '.cache', 'bench', process.argv[2] === 'link' ? 'link-cost.mjs' : 'echo-measures.mjs'),
  'error',
);
const result = spawnSync(process.execPath, [out, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: join(import.meta.dirname, '..'),
  env: { ...process.env, EWP_PARAPHRASE_DIR: join(import.meta.dirname, '..', 'test', 'fixtures') },
});
process.exit(result.status ?? 1);
