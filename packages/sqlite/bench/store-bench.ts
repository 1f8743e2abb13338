/**
 * SQLite EvidenceStore benchmark: batched ingest (records/s), snapshot read latency for 10, 1,000 and
 * 100,000-record views, and the audit-chain verify rate. The baseline, measured in the same run on the
 * same machine, is raw better-sqlite3 inserting the same record JSON into a plain table in one
 * transaction: the floor any SQLite ledger pays.
 *
 * Size: EWP_BENCH_RECORDS (default 100,000, CI-sized; the full run is 1,000,000).
 * Writes <repo>/bench/results/sqlite-store.json (or EWP_BENCH_OUT).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { benchView, figure, machineNote, measureReadPath, measureSingleViewPuts, readPathRows } from '../../ledger/test-support/store-bench-phases.js';

const TOTAL = Number(process.env.EWP_BENCH_RECORDS ?? 100_000);
const PER_VIEW = 1000;
const VIEWS_PER_TX = 10;
const OUT = process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'sqlite-store.json');

const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-sqlite-'));

// Baseline: raw inserts of the same record JSON.
const rawDb = new Database(join(dir, 'raw.sqlite'));
rawDb.pragma('journal_mode = WAL');
rawDb.pragma('synchronous = NORMAL');
rawDb.exec('CREATE TABLE r (owner TEXT, id TEXT, body TEXT, PRIMARY KEY (owner, id)) WITHOUT ROWID');
const insert = rawDb.prepare('INSERT INTO r VALUES (?, ?, ?)');
let t0 = performance.now();
for (let v = 0; v < TOTAL / PER_VIEW; v += VIEWS_PER_TX) {
  rawDb.transaction(() => {
    for (let k = v; k < v + VIEWS_PER_TX && k < TOTAL / PER_VIEW; k += 1) {
      const x = benchView(`P-${k}`, PER_VIEW);
      for (const e of x.evidence) insert.run(x.proposition_id, e.evidence_id, JSON.stringify(e));
    }
  })();
}
const rawSeconds = (performance.now() - t0) / 1000;
rawDb.close();

const ingestCpu = process.cpuUsage();
// The store: batched ingest (putMany = one transaction of VIEWS_PER_TX views).
const store = new SqliteEvidenceStore(join(dir, 'ledger.sqlite'));
t0 = performance.now();
for (let v = 0; v < TOTAL / PER_VIEW; v += VIEWS_PER_TX) {
  const batch = [];
  for (let k = v; k < v + VIEWS_PER_TX && k < TOTAL / PER_VIEW; k += 1) batch.push(benchView(`P-${k}`, PER_VIEW));
  await store.putMany(batch);
}
const ingestSeconds = (performance.now() - t0) / 1000;
const ingestUsed = process.cpuUsage(ingestCpu);
const ingestCpuSeconds = (ingestUsed.user + ingestUsed.system) / 1e6;

const singleViewPuts = await measureSingleViewPuts(new SqliteEvidenceStore(join(dir, 'single.sqlite')), TOTAL, PER_VIEW);

// Read latency, extend and the audit-chain verify.
const readPath = await measureReadPath(store, TOTAL);
await store.close();
rmSync(dir, { recursive: true, force: true });

const result = {
  bench: '@ewp/sqlite store',
  machine: machineNote(),
  config: { records: TOTAL, records_per_view: PER_VIEW, views_per_transaction: VIEWS_PER_TX },
  baseline_raw_sqlite: { records_per_s: Math.round(TOTAL / rawSeconds), seconds: rawSeconds },
  ingest_batched: {
    records_per_s: Math.round(TOTAL / ingestSeconds),
    seconds: ingestSeconds,
    ratio_to_baseline: rawSeconds / ingestSeconds,
    cpu_seconds: ingestCpuSeconds,
    records_per_cpu_s: Math.round(TOTAL / ingestCpuSeconds),
  },
  ingest_one_view_per_transaction: singleViewPuts,
  ...readPath,
  targets: { ingest_records_per_s: 100_000, read_1000_ms: 5 },
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
const f = figure;
console.log(`@ewp/sqlite bench — ${result.machine.cpu} x${result.machine.cores}, load ${f(result.machine.loadavg_1m ?? 0)}, ${process.version}`);
console.table({
  'raw SQLite inserts (baseline)': { value: `${f(result.baseline_raw_sqlite.records_per_s)} rec/s`, ratio: '1.00' },
  'store ingest, batched': {
    value: `${f(result.ingest_batched.records_per_s)} rec/s`,
    ratio: f(result.ingest_batched.ratio_to_baseline),
    target: '>= 100,000 rec/s',
  },
  ...readPathRows(singleViewPuts, readPath, '< 5 ms'),
});
console.log(`wrote ${OUT}`);
