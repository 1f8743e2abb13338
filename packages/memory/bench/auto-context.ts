/**
 * Auto-context benchmark, on the SQLite store, one run: the auto-context over a scope of
 * EWP_BENCH_CONTEXT_MEMORIES memories (default 20,000; some confirmed by a second source, some recalled),
 * with its confirmed part from the confirmed index against the reference that judges every memory of the
 * scope (`autoContextByScan`), each arm on its own layer over the same file:
 * - cold: the first call after the chain was read (the index is built);
 * - steady: one new memory written (by the index's own layer), then the context at a T one second later,
 *   repeated; the scan arm reads the same write. Both arms' answers are compared at every step;
 * - the persona checkout (confirmed or promoted memories) in the same steady state, index against scan.
 * Writes <repo>/bench/results/memory-auto-context.json (or EWP_BENCH_OUT).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { figure, machineNote } from '../../ledger/test-support/store-bench-phases.js';
import type { EpistemicClass } from '../src/epistemic-class.js';
import { storeEvent } from '../src/memory-events.js';
import { type MemoryLayer, makeLayer } from '../src/memory-layer.js';
import { defaultOrigin, type MemoryFacts, memoryHash, memoryView } from '../src/memory-records.js';
import { checkout, checkoutByScan } from '../src/memory-checkout.js';
import { autoContext, autoContextByScan, recall } from '../src/memory-recall.js';
import { storeMemory } from '../src/memory-write.js';

const N = Number(process.env.EWP_BENCH_CONTEXT_MEMORIES ?? 20_000);
const CONFIRMED = 200;
const STEPS = Number(process.env.EWP_BENCH_CONTEXT_STEPS ?? 15);
const OUT = process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'memory-auto-context.json');
const T0 = Date.parse('2026-12-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** The i-th filler memory: every fourth a hypothesis, the rest observations of 97 sensors. */
function filler(i: number): MemoryFacts {
  const cls: EpistemicClass = i % 4 === 0 ? 'hypothesis' : 'observation';
  const text = `tok${i} sensor ${i % 97} reads ${(i * 7919) % 1000} units at station ${i % 13}`;
  const source = `sensor-${i % 97}`;
  return {
    hash: memoryHash({ text, project: null, source }),
    class: cls,
    project: null,
    source,
    text,
    origin_type: defaultOrigin(cls),
    observed_at: iso(T0),
    derived_from: [],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed<R>(f: () => Promise<R>): Promise<[number, R]> {
  const t = performance.now();
  const r = await f();
  return [performance.now() - t, r];
}

async function main() {
  mkdirSync(dirname(OUT), { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-context-'));
  const path = join(dir, 'ledger.sqlite');
  const store = new SqliteEvidenceStore(path);
  for (let start = 0; start < N; start += 1000) {
    const facts = Array.from({ length: Math.min(1000, N - start) }, (_, k) => filler(start + k));
    await store.putMany(facts.map(memoryView), { entries: facts.map(storeEvent) });
  }
  let clock = T0;
  const options = { now: () => iso(clock) };
  const indexed: MemoryLayer = makeLayer(store, options);
  // A second source's support confirms some memories (confidence 66 against the threshold 60).
  for (let c = 0; c < CONFIRMED; c += 1) {
    const target = filler(c * Math.floor(N / CONFIRMED) + 1);
    await storeMemory(indexed, { text: `audit ${c}: ${target.text} confirmed`, class: 'observation', source: 'auditor', supports: [target.hash] });
  }
  // Some salience, so the hot part has rows.
  for (let q = 0; q < 50; q += 1) await recall(indexed, { query: `tok${q * 37}`, limit: 1 });
  const scanStore = new SqliteEvidenceStore(path);
  const scanned: MemoryLayer = makeLayer(scanStore, options);
  await indexed.index.refresh();
  await scanned.index.refresh();

  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  // The confirmed parts are compared (the hot parts differ: only the index's layer was recalled from).
  let disagreements = 0;
  const [coldScanMs, coldScan] = await timed(() => autoContextByScan(scanned, { at: iso(clock) }));
  const [coldIndexMs, coldIndex] = await timed(() => autoContext(indexed, { at: iso(clock) }));
  if (!same(coldScan.confirmed, coldIndex.confirmed)) disagreements += 1;

  const steadyIndex: number[] = [];
  const steadyScan: number[] = [];
  const writeMs: number[] = [];
  for (let s = 0; s < STEPS; s += 1) {
    clock += 1000;
    const [w] = await timed(() => storeMemory(indexed, { text: `turn ${s}: station ${s % 13} restarted`, class: 'observation', source: 'operator' }));
    writeMs.push(w);
    clock += 1000;
    const [i, a] = await timed(() => autoContext(indexed, { at: iso(clock) }));
    const [sc, b] = await timed(() => autoContextByScan(scanned, { at: iso(clock) }));
    steadyIndex.push(i);
    steadyScan.push(sc);
    if (!same(a.confirmed, b.confirmed)) disagreements += 1;
  }
  const checkoutIndex: number[] = [];
  const checkoutScan: number[] = [];
  for (let s = 0; s < 3; s += 1) {
    clock += 1000;
    await storeMemory(indexed, { text: `checkout turn ${s}: station ${s % 13} restarted`, class: 'observation', source: 'operator' });
    clock += 1000;
    const [i, a] = await timed(() => checkout(indexed, { at: iso(clock) }));
    const [sc, b] = await timed(() => checkoutByScan(scanned, { at: iso(clock) }));
    checkoutIndex.push(i);
    checkoutScan.push(sc);
    if (a !== b) disagreements += 1;
  }
  const results = {
    benchmark: 'memory-auto-context',
    date: new Date().toISOString(),
    machine: { ...machineNote(), note: 'shared 2-core machine, other engineers building and testing; indicative figures' },
    store: 'sqlite (file in tmpdir)',
    memories: N + CONFIRMED + STEPS + 3,
    confirmed_rows: coldIndex.confirmed.rows.length,
    confirmed_members: coldIndex.confirmed.rows.length + coldIndex.confirmed.omitted,
    hot_rows: coldIndex.hot.rows.length,
    cold: { index_ms: coldIndexMs, scan_ms: coldScanMs },
    steady: {
      steps: STEPS,
      index_ms: median(steadyIndex),
      scan_ms: median(steadyScan),
      ratio_scan_over_index: median(steadyScan) / median(steadyIndex),
      index_ms_all: steadyIndex,
      write_ms: median(writeMs),
    },
    checkout: { index_ms: median(checkoutIndex), scan_ms: median(checkoutScan) },
    disagreements,
  };
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  const f = figure;
  console.log(`auto-context over ${N} memories (${results.confirmed_members} confirmed), SQLite:`);
  console.log(`  cold (first call): index ${f(coldIndexMs)} ms, scan ${f(coldScanMs)} ms`);
  console.log(
    `  steady (one memory written, T + 1 s; median of ${STEPS}): index ${f(results.steady.index_ms)} ms, scan ${f(results.steady.scan_ms)} ms (x${f(results.steady.ratio_scan_over_index)})`,
  );
  console.log(`  persona checkout, steady (median of 3): index ${f(results.checkout.index_ms)} ms, scan ${f(results.checkout.scan_ms)} ms`);
  console.log(`  disagreements between the index and the scan: ${disagreements}`);
  console.log(`wrote ${OUT}`);
  await store.close();
  await scanStore.close();
  rmSync(dir, { recursive: true, force: true });
  if (disagreements > 0) process.exit(1);
}

await main();
