/**
 * The revision read on PostgreSQL, with and without the commit listener: repeated `ewp_warrant_now` calls on
 * stored propositions (the tool the MCP server runs, through the store's warrant table, so every answer is a
 * lookup once the table is filled) from three read-only stores on one schema: reading the chain head per
 * revision (`listen: false`, the baseline), listening with the fence (the default) and listening without it
 * (`fence: false`). Arms alternate in one run; each ratio is against the chain head. Two shapes: one call
 * per event-loop turn (each call reads the revision) and batches of 100 calls started in one turn (one
 * revision read serves the batch).
 *
 * EWP_BENCH_CALLS (default 3,000 per arm and round), EWP_BENCH_ROUNDS (default 3).
 * Writes EWP_BENCH_OUT (the runner, bench/run-revision-bench.mjs, sets <repo>/bench/results/postgres-revision.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runTool, toolContext } from '../../tools/src/index.js';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { figure, machineNote } from '../../ledger/test-support/store-bench-phases.js';
import { dropPostgresLedger, openPostgresStore, type PostgresEvidenceStore } from '../src/postgres-store.js';

const CALLS = Number(process.env.EWP_BENCH_CALLS ?? 3000);
const ROUNDS = Number(process.env.EWP_BENCH_ROUNDS ?? 3);
const PROPOSITIONS = 100;
const BATCH = 100;
const T = '2026-09-21T21:00:00+00:00';
const OUT = process.env.EWP_BENCH_OUT ?? join(process.cwd(), 'postgres-revision.json');

const schema = `ewp_bench_rev_${process.pid}`;
const writer = await openPostgresStore({ schema, listen: false });
await writer.putMany(Array.from({ length: PROPOSITIONS }, (_, i) => seedView(`P-${i}`)));

const arms: Record<string, PostgresEvidenceStore> = {
  'chain head': await openPostgresStore({ schema, readOnly: true, maxConnections: 2, listen: false }),
  'listener, fenced': await openPostgresStore({ schema, readOnly: true, maxConnections: 2 }),
  'listener, no fence': await openPostgresStore({ schema, readOnly: true, maxConnections: 2, fence: false }),
};
const listening = () => Object.values(arms).filter((s) => s.listenerState === 'listening').length === 2;
for (const store of Object.values(arms)) await store.revision();
for (let i = 0; i < 500 && !listening(); i += 1) await new Promise((r) => setTimeout(r, 10));
if (!listening()) throw new Error('the listeners were not confirmed');

const call = async (store: PostgresEvidenceStore, i: number) => {
  const out = await runTool('ewp_warrant_now', { proposition_id: `P-${i % PROPOSITIONS}`, evaluated_at: T }, toolContext({ store }));
  if (!out.ok) throw out.refusal;
};

/** Calls per second: one call per turn, or `BATCH` calls started together. */
async function measure(store: PostgresEvidenceStore, batch: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i += batch) {
    if (batch === 1) await call(store, i);
    else await Promise.all(Array.from({ length: batch }, (_, k) => call(store, i + k)));
  }
  return CALLS / ((performance.now() - t0) / 1000);
}

// Fill every table (and warm the code) before measuring.
for (const store of Object.values(arms)) for (let i = 0; i < PROPOSITIONS * 2; i += 1) await call(store, i);

const SHAPES = [
  ['one call per turn', 1],
  [`${BATCH} calls per turn`, BATCH],
] as const;
const load: number[] = [machineNote().loadavg_1m ?? 0];
const rates: Record<string, Record<string, number[]>> = Object.fromEntries(SHAPES.map(([shape]) => [shape, {}]));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [shape, batch] of SHAPES) {
    for (const [arm, store] of Object.entries(arms)) {
      const byArm = rates[shape] as Record<string, number[]>;
      byArm[arm] = [...(byArm[arm] ?? []), await measure(store, batch)];
    }
  }
  load.push(machineNote().loadavg_1m ?? 0);
}
if (!listening()) throw new Error('a listener dropped during the run');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const rows = Object.fromEntries(
  Object.entries(rates).map(([shape, byArm]) => {
    const base = median(byArm['chain head'] as number[]);
    const arm = ([name, xs]: [string, number[]]) => [name, { calls_per_s: Math.round(median(xs)), ratio: Number((median(xs) / base).toFixed(2)) }];
    return [shape, Object.fromEntries(Object.entries(byArm).map(arm))];
  }),
) as Record<string, Record<string, { calls_per_s: number; ratio: number }>>;
const result = { bench: 'postgres-revision', calls: CALLS, rounds: ROUNDS, propositions: PROPOSITIONS, machine: machineNote(), loadavg_1m: load, rows, rates };
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
for (const [shape, byArm] of Object.entries(rows)) {
  console.log(
    `${shape}: ${Object.entries(byArm)
      .map(([arm, r]) => `${arm} ${figure(r.calls_per_s)} calls/s (${r.ratio}x)`)
      .join(', ')}`,
  );
}
console.log(`load average (1 min) ${load.map((x) => x.toFixed(1)).join(' → ')}; wrote ${OUT}`);

for (const store of [writer, ...Object.values(arms)]) await store.close();
await dropPostgresLedger(schema);
