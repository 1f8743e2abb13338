// WarrantedStore overhead against the raw LangGraph InMemoryStore it wraps, measured in the same
// run: put (an item + its evidence snapshot), get (+ warrant at read time), search limit 10
// (+ warrant per hit). Usage: pnpm --filter @ewp/langchain bench   (EWP_BENCH_QUICK=1: CI-sized)
// Results: <repo>/bench/results/langchain-warranted-store.json
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { InMemoryStore } from '@langchain/langgraph';
import { WarrantedStore } from '../dist/index.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const QUICK = process.env.EWP_BENCH_QUICK === '1';
const ITEMS = QUICK ? 50 : 300;
const MIN_MS = QUICK ? 300 : 2000;

/** Best-of-5 rate (ops/s) of an async operation; other load on the shared machine only slows a round. */
async function rate(op) {
  for (let i = 0; i < 20; i++) await op(i);
  let best = 0;
  let k = 0;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    let n = 0;
    let elapsed = 0;
    while (elapsed < MIN_MS / 5) {
      await op(k++);
      n++;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (n * 1000) / elapsed);
  }
  return best;
}

async function populate(store) {
  // 10 propositions, ITEMS memories spread over them.
  for (let i = 0; i < ITEMS; i++) await store.put(['bench', 'memories'], `m${i}`, { text: `memory ${i}`, proposition_id: `P-${i % 10}` });
}

const raw = new InMemoryStore();
const wrapped = new WarrantedStore(new InMemoryStore());
await populate(raw);
await populate(wrapped);

const rows = [];
for (const [name, op] of [
  ['put (update one item)', (s) => (i) => s.put(['bench', 'memories'], `m${i % ITEMS}`, { text: `memory ${i % ITEMS} v${i}`, proposition_id: `P-${i % 10}` })],
  ['get', (s) => (i) => s.get(['bench', 'memories'], `m${i % ITEMS}`)],
  ['search limit 10', (s) => () => s.search(['bench', 'memories'], { limit: 10 })],
]) {
  const base = await rate(op(raw));
  const ewp = await rate(op(wrapped));
  rows.push({ operation: name, inmemory_ops_per_s: base, warranted_ops_per_s: ewp, slowdown: base / ewp });
}

const cpus = os.cpus();
const machine = {
  cpu: cpus[0]?.model.trim() ?? 'unknown',
  cores: cpus.length,
  memory_gb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  note: 'shared machine: other engineers build and test concurrently; figures are indicative',
};
mkdirSync(`${REPO}bench/results`, { recursive: true });
const path = `${REPO}bench/results/langchain-warranted-store.json`;
writeFileSync(
  path,
  `${JSON.stringify({ benchmark: 'langchain-warranted-store', date: new Date().toISOString(), machine, quick: QUICK, items: ITEMS, baseline: 'LangGraph InMemoryStore, same operations, same run', rows }, null, 2)}\n`,
);
console.log(`WarrantedStore vs InMemoryStore (${ITEMS} items in 10 propositions; ${machine.cpu}, ${machine.cores} cores, node ${machine.node})`);
const w = [24, 14, 14, 9];
const line = (c) => c.map((x, i) => String(x).padStart(w[i])).join('  ');
console.log(line(['operation', 'InMemory op/s', 'Warranted op/s', 'slowdown']));
for (const r of rows) console.log(line([r.operation, r.inmemory_ops_per_s.toFixed(0), r.warranted_ops_per_s.toFixed(0), `${r.slowdown.toFixed(1)}x`]));
console.log(`-> ${path}`);
