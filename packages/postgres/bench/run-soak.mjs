// `pnpm soak`: bundles the soak worker and bench/soak-cli.ts from the TypeScript sources and runs them
// (arguments pass through; see soak-cli.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleFromSources, bundleWorker } from '../../ledger/test-support/bundle-from-sources.mjs';

const dir = import.meta.dirname;
const worker = await bundleWorker(join(dir, 'soak-worker.ts'));
const cli = await bundleFromSources(join(dir, 'soak-cli.ts'), join(dir, '..', 'node_modules', '.cache', 'bench', 'soak-cli.mjs'), 'error');
const out = join(dir, '..', '..', '..', 'bench', 'results', 'postgres-soak.json');
// `pnpm soak -- --seconds 60` hands the `--` on; dropped here, or every flag after it is refused.
const args = process.argv.slice(2);
if (args[0] === '--') args.shift();
const result = spawnSync(process.execPath, [cli, '--worker', worker, '--out', out, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
