// The README's first command: install, build every package (so every example under examples/ runs
// afterwards), and run the main job — ingest the example evidence into the embedded SQLite ledger
// ./ewp.sqlite and print the warrant table.
import { spawnSync } from 'node:child_process';
import { pnpm } from './pnpm.mjs';

pnpm(['install', '--frozen-lockfile']);
pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);

const cli = 'packages/cli/dist/bin.js';
const example = 'conformance/pack/examples/quickstart.json';
const at = '2026-09-23T12:00:00Z';
const args = ['ingest', example, '--db', './ewp.sqlite', '--attest-trusted-origins', '--evaluated-at', at];
console.log(`\n$ ewp ${args.join(' ')}\n`);
const r = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
