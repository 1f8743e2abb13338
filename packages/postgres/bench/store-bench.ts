/**
 * PostgreSQL EvidenceStore benchmark: batched ingest (records/s), snapshot read latency for 10, 1,000 and
 * 100,000-record views, and the audit-chain verify rate. The baseline, measured in the same run on the
 * same machine, is raw `pg` inserting the same record JSON into a plain table (unnest batches, one
 * transaction per batch): the floor any PostgreSQL ledger pays.
 *
 * Size: EWP_BENCH_RECORDS (default 100,000, CI-sized; the full run is 1,000,000).
 * Writes <repo>/bench/results/postgres-store.json (or EWP_BENCH_OUT).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore } from '../src/postgres-store.js';
import { benchView, figure, machineNote, measureReadPath, measureSingleViewPuts, readPathRows } from '../../ledger/test-support/store-bench-phases.js';

const TOTAL = Number(process.env.EWP_BENCH_RECORDS ?? 100_000);
const PER_VIEW = 1000;
const VIEWS_PER_TX = 10;
const OUT = process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'postgres-store.json');

const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-pg-'));

// Baseline: raw inserts of the same record JSON.
const run = `b${process.pid}`;
const rawClient = new pg.Client({ connectionString: defaultConnectionString() });
await rawClient.connect();
await rawClient.query(`CREATE TABLE ewp_bench_raw_${run} (owner text, id text, body text, PRIMARY KEY (owner, id))`);
let t0 = performance.now();
for (let v = 0; v < TOTAL / PER_VIEW; v += VIEWS_PER_TX) {
  await rawClient.query('BEGIN');
  for (let k = v; k < v + VIEWS_PER_TX && k < TOTAL / PER_VIEW; k += 1) {
    const x = benchView(`P-${k}`, PER_VIEW);
    await rawClient.query(`INSERT INTO ewp_bench_raw_${run} SELECT $1, * FROM unnest($2::text[], $3::text[])`, [
      x.proposition_id,
      x.evidence.map((e) => e.evidence_id),
      x.evidence.map((e) => JSON.stringify(e)),
    ]);
  }
  await rawClient.query('COMMIT');
}
const rawSeconds = (performance.now() - t0) / 1000;
await rawClient.query(`DROP TABLE ewp_bench_raw_${run}`);
await rawClient.end();

const ingestCpu = process.cpuUsage();
// The store: batched ingest (putMany = one transaction of VIEWS_PER_TX views).
const store = await openPostgresStore({ schema: `ewp_bench_${run}` });
t0 = performance.now();
for (let v = 0; v < TOTAL / PER_VIEW; v += VIEWS_PER_TX) {
  const batch = [];
  for (let k = v; k < v + VIEWS_PER_TX && k < TOTAL / PER_VIEW; k += 1) batch.push(benchView(`P-${k}`, PER_VIEW));
  await store.putMany(batch);
}
const ingestSeconds = (performance.now() - t0) / 1000;
const ingestUsed = process.cpuUsage(ingestCpu);
const ingestCpuSeconds = (ingestUsed.user + ingestUsed.system) / 1e6;

const singleViewPuts = await measureSingleViewPuts(await openPostgresStore({ schema: `ewp_bench_single_${run}` }), TOTAL, PER_VIEW);

// Read latency, extend and the audit-chain verify.
const readPath = await measureReadPath(store, TOTAL);
await store.close();
await dropPostgresLedger(`ewp_bench_${run}`);
await dropPostgresLedger(`ewp_bench_single_${run}`);
rmSync(dir, { recursive: true, force: true });

const result = {
  bench: '@ewp/postgres store',
  machine: machineNote(),
  config: { records: TOTAL, records_per_view: PER_VIEW, views_per_transaction: VIEWS_PER_TX },
  baseline_raw_pg: { records_per_s: Math.round(TOTAL / rawSeconds), seconds: rawSeconds },
  ingest_batched: {
    records_per_s: Math.round(TOTAL / ingestSeconds),
    seconds: ingestSeconds,
    ratio_to_baseline: rawSeconds / ingestSeconds,
    cpu_seconds: ingestCpuSeconds,
    records_per_cpu_s: Math.round(TOTAL / ingestCpuSeconds),
  },
  ingest_one_view_per_transaction: singleViewPuts,
  ...readPath,
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
const f = figure;
console.log(`@ewp/postgres bench — ${result.machine.cpu} x${result.machine.cores}, load ${f(result.machine.loadavg_1m ?? 0)}, ${process.version}`);
console.table({
  'raw pg inserts (baseline)': { value: `${f(result.baseline_raw_pg.records_per_s)} rec/s`, ratio: '1.00' },
  'store ingest, batched': { value: `${f(result.ingest_batched.records_per_s)} rec/s`, ratio: f(result.ingest_batched.ratio_to_baseline) },
  ...readPathRows(singleViewPuts, readPath),
});
console.log(`wrote ${OUT}`);
