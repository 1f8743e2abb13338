// Run every example under examples/ (each package.json script that runs a .mjs file: `start`,
// `agent`, ...) after `npm run quickstart`, and print one line per run with its exit code and what the
// example decided: each example ends by printing one `decided: ...` line (the gate's decisions, or what
// the warrant layer concluded), shown here under its run. Exits 1 when any example failed or printed
// no decision. The examples are offline: mock models and local servers only.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNode22 } from './test-node22.mjs';

const root = join(import.meta.dirname, '..');
const examplesDir = join(root, 'examples');
let failed = 0;
let ran = 0;
for (const name of readdirSync(examplesDir).sort()) {
  const dir = join(examplesDir, name);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) continue;
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  const scripts = pkg.scripts ?? {};
  // An example whose engines ask for Node 22 runs with the Node 22 lane's binary (scripts/test-node22.mjs).
  const node = /^>=\s*22/.test(pkg.engines?.node ?? '') ? ensureNode22() : process.execPath;
  for (const [script, command] of Object.entries(scripts)) {
    const match = /^node (\S+\.mjs)$/.exec(command);
    if (!match) continue;
    const started = Date.now();
    const r = spawnSync(node, [match[1]], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
    ran++;
    const code = r.status ?? r.signal;
    const decided = (r.stdout ?? '').split('\n').findLast((l) => l.startsWith('decided: '));
    const ok = code === 0 && decided !== undefined;
    if (!ok) failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} examples/${name} (${script}: ${command}) exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`     ${decided ?? 'no `decided: ...` line: the example must end by printing what it decided'}`);
    if (code !== 0) process.stderr.write(`${r.stderr}\n`);
  }
}
console.log(`${ran - failed} passed, ${failed} failed`);
process.exit(failed > 0 || ran === 0 ? 1 : 0);
