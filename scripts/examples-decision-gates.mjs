// Which gate names the examples' decision records carry: runs every example as `npm run examples`
// does (scripts/run-examples.mjs), each with a preload that counts the `decision` entries appended to
// any ledger (every store is a LedgerEngineStore of @ewp/ledger's build), by the record's gate name,
// in the example's process and every Node process it starts (the preload travels in NODE_OPTIONS).
// Prints one line per example and the totals; `library` is the default name of a gate that did not
// say which binding it is (the goal: 0). Needs the packages built (`pnpm build`).
//
//   node scripts/examples-decision-gates.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureNode22 } from './test-node22.mjs';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'ewp-example-gates-'));
const preload = join(work, 'count-gates.mjs');
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs';
import { LedgerEngineStore } from ${JSON.stringify(pathToFileURL(join(root, 'packages/ledger/dist/index.js')).href)};
const gates = {};
const append = LedgerEngineStore.prototype.appendEntries;
LedgerEngineStore.prototype.appendEntries = async function (entries) {
  const results = await append.call(this, entries);
  entries.forEach((e, i) => {
    if (e.kind === 'decision' && results[i]?.status === 'stored') {
      const gate = e.body?.record?.gate ?? '(none)';
      gates[gate] = (gates[gate] ?? 0) + 1;
    }
  });
  return results;
};
process.on('exit', () => writeFileSync(process.env.EWP_GATE_COUNTS + '.' + process.pid + '.json', JSON.stringify(gates)));
`,
);

const totals = {};
for (const name of readdirSync(join(root, 'examples')).sort()) {
  const dir = join(root, 'examples', name);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const node = /^>=\s*22/.test(pkg.engines?.node ?? '') ? ensureNode22() : process.execPath;
  for (const [script, command] of Object.entries(pkg.scripts ?? {})) {
    const match = /^node (\S+\.mjs)$/.exec(command);
    if (!match) continue;
    const counts = join(work, `${name}-${script}`);
    const r = spawnSync(node, [match[1]], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(preload).href}`, EWP_GATE_COUNTS: counts },
    });
    const gates = {};
    for (const file of readdirSync(work).filter((f) => f.startsWith(`${name}-${script}.`))) {
      for (const [gate, n] of Object.entries(JSON.parse(readFileSync(join(work, file), 'utf8')))) gates[gate] = (gates[gate] ?? 0) + n;
    }
    for (const [gate, n] of Object.entries(gates)) totals[gate] = (totals[gate] ?? 0) + n;
    const listed =
      Object.entries(gates)
        .map(([gate, n]) => `${gate} ${n}`)
        .join(', ') || 'no decisions';
    console.log(`examples/${name} (${script}) exit ${r.status ?? r.signal}: ${listed}`);
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`decisions by gate: ${JSON.stringify(totals)}; labelled library: ${totals.library ?? 0}`);
