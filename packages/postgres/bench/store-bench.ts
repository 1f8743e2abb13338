/**
 * PostgreSQL EvidenceStore benchmark: batched ingest (records/s), snapshot read latency for 10, 1,000 and
 * 100,000-record views, and the audit-chain verify rate. The baseline, measured in the same run on the
 * same machine, is raw `pg` inserting the same record JSON into a plain table (unnest batches, one
 * transaction per batch): the floor any PostgreSQL ledger pays.
 *
 * Size: EWP_BENCH_RECORDS (default 100,000, CI-sized; the full run is 1,000,000).
 * Writes /work/main/bench/results/postgres-store.json (or EWP_BENCH_OUT).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore } from '../src/postgres-store.js';

const TOTAL = Number(process.env.EWP_BENCH_RECORDS ?? 100_000);
const PER_VIEW = 1000;
const VIEWS_PER_TX = 10;
const OUT = process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'postgres-store.json');

function source(id: string) {
  return {
    source_id: id,
    lineage_id: `L-${id}`,
    origin_type: 'tool',
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
  };
}

function view(pid: string, records: number) {
  const evidence = [];
  for (let i = 0; i < records; i += 1) {
    evidence.push({ evidence_id: `e${i}`, polarity: 'supports', source: source(`s${i % 50}`), content: `observation ${i} of ${pid}`, observed_at: '2026-09-01T00:00:00+00:00' });
  }
  return { proposition_id: pid, view_id: 'v1', evidence };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

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
    const x = view(`P-${k}`, PER_VIEW);
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
  for (let k = v; k < v + VIEWS_PER_TX && k < TOTAL / PER_VIEW; k += 1) batch.push(view(`P-${k}`, PER_VIEW));
  await store.putMany(batch);
}
const ingestSeconds = (performance.now() - t0) / 1000;
const ingestUsed = process.cpuUsage(ingestCpu);
const ingestCpuSeconds = (ingestUsed.user + ingestUsed.system) / 1e6;

// Single-view transactions (what `ewp ingest` does).
const single = await openPostgresStore({ schema: `ewp_bench_single_${run}` });
const singleViews = Math.max(1, Math.min(TOTAL / PER_VIEW, 20));
t0 = performance.now();
for (let k = 0; k < singleViews; k += 1) await single.put(view(`P-${k}`, PER_VIEW));
const singleSeconds = (performance.now() - t0) / 1000;
await single.close();

// Read latency.
const reads: Record<string, { records: number; iterations: number; median_ms: number; p95_ms: number; cpu_ms_mean: number }> = {};
for (const [records, iterations] of [
  [10, 500],
  [1000, 200],
  [100_000, 5],
] as const) {
  const pid = `R-${records}`;
  await store.put(view(pid, records));
  await store.get(pid);
  const times: number[] = [];
  // CPU time as well as wall time: on a shared machine the wall clock mostly measures the neighbours.
  const cpu = process.cpuUsage();
  for (let i = 0; i < iterations; i += 1) {
    const t = performance.now();
    await store.get(pid);
    times.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  const sorted = [...times].sort((a, b) => a - b);
  reads[String(records)] = {
    records,
    iterations,
    median_ms: median(times),
    p95_ms: sorted[Math.floor(sorted.length * 0.95)] as number,
    cpu_ms_mean: (used.user + used.system) / 1000 / iterations,
  };
}

// Extend (append one record to a 1,000-record snapshot and commit).
const extendTimes: number[] = [];
for (let i = 0; i < 100; i += 1) {
  const t = performance.now();
  await store.extend('R-1000', [{ kind: 'evidence', record: { evidence_id: `x${i}`, polarity: 'supports', source: source('sx'), content: 'x', observed_at: '2026-09-01T00:00:00+00:00' } }]);
  extendTimes.push(performance.now() - t);
}

// Audit-chain verify (log + every row against its event).
t0 = performance.now();
const chain = await store.verifyChain();
const verifySeconds = (performance.now() - t0) / 1000;
if (!chain.ok) throw new Error(`chain did not verify: ${JSON.stringify(chain)}`);
await store.close();
await dropPostgresLedger(`ewp_bench_${run}`);
await dropPostgresLedger(`ewp_bench_single_${run}`);
rmSync(dir, { recursive: true, force: true });

const storedRecords = TOTAL + 10 + 1000 + 100_000 + 100;
const result = {
  bench: '@ewp/postgres store',
  machine: { cpu: cpus()[0]?.model, cores: cpus().length, memory_gb: Math.round(totalmem() / 2 ** 30), loadavg_1m: loadavg()[0], node: process.version },
  config: { records: TOTAL, records_per_view: PER_VIEW, views_per_transaction: VIEWS_PER_TX },
  baseline_raw_pg: { records_per_s: Math.round(TOTAL / rawSeconds), seconds: rawSeconds },
  ingest_batched: { records_per_s: Math.round(TOTAL / ingestSeconds), seconds: ingestSeconds, ratio_to_baseline: rawSeconds / ingestSeconds, cpu_seconds: ingestCpuSeconds, records_per_cpu_s: Math.round(TOTAL / ingestCpuSeconds) },
  ingest_one_view_per_transaction: { records_per_s: Math.round((singleViews * PER_VIEW) / singleSeconds), views: singleViews },
  read_latency: reads,
  extend_1000_record_snapshot: { median_ms: median(extendTimes), iterations: extendTimes.length },
  audit_verify: {
    entries: chain.length,
    entries_per_s: Math.round(chain.length / verifySeconds),
    records_per_s: Math.round(storedRecords / verifySeconds),
    seconds: verifySeconds,
  },
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
const f = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });
console.log(`@ewp/postgres bench — ${result.machine.cpu} x${result.machine.cores}, load ${f(result.machine.loadavg_1m ?? 0)}, ${process.version}`);
console.table({
  'raw pg inserts (baseline)': { value: `${f(result.baseline_raw_pg.records_per_s)} rec/s`, ratio: '1.00' },
  'store ingest, batched': { value: `${f(result.ingest_batched.records_per_s)} rec/s`, ratio: f(result.ingest_batched.ratio_to_baseline) },
  'store ingest, 1 view/tx': { value: `${f(result.ingest_one_view_per_transaction.records_per_s)} rec/s` },
  'read 10-record view': { value: `${f(reads['10']?.median_ms ?? 0)} ms median, ${f(reads['10']?.cpu_ms_mean ?? 0)} ms CPU` },
  'read 1,000-record view': { value: `${f(reads['1000']?.median_ms ?? 0)} ms median, ${f(reads['1000']?.cpu_ms_mean ?? 0)} ms CPU` },
  'read 100,000-record view': { value: `${f(reads['100000']?.median_ms ?? 0)} ms median, ${f(reads['100000']?.cpu_ms_mean ?? 0)} ms CPU` },
  'extend 1,000-record view': { value: `${f(result.extend_1000_record_snapshot.median_ms)} ms median` },
  'audit verify (log + every row)': { value: `${f(result.audit_verify.records_per_s)} stored rec/s (${result.audit_verify.entries} entries)` },
});
console.log(`wrote ${OUT}`);
