/**
 * JSON-file EvidenceStore benchmark: batched ingest (records/s), snapshot read latency for 10, 1,000 and
 * 100,000-record views, and the audit-chain verify rate. The baseline, measured in the same run on the
 * same machine, is writing each view as one plain JSON file (write + fsync + rename, like the
 * store's atomic replace): the floor any JSON-file ledger pays.
 *
 * Size: EWP_BENCH_RECORDS (default 100,000, CI-sized; the issue's full run is 1,000,000).
 * Writes <repo>/bench/results/json-file-store.json (or EWP_BENCH_OUT).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { buildChainEntries, EMPTY_ANCHOR, verifyChain } from '@ewp/canonical';
import { JsonFileEvidenceStore } from '../src/json-file-store.js';
import { benchView, figure, machineNote, measureReadPath, measureSingleViewPuts, readPathRows } from '../test-support/store-bench-phases.js';

const TOTAL = Number(process.env.EWP_BENCH_RECORDS ?? 100_000);
const PER_VIEW = 1000;
const VIEWS_PER_TX = 10;
const OUT = process.env.EWP_BENCH_OUT ?? join(import.meta.dirname, '..', '..', '..', 'bench', 'results', 'json-file-store.json');

const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-json-'));

// Baseline: one plain JSON file per view, written atomically.
mkdirSync(join(dir, 'raw'));
let t0 = performance.now();
for (let k = 0; k < TOTAL / PER_VIEW; k += 1) {
  const path = join(dir, 'raw', `P-${k}.json`);
  const fd = openSync(`${path}.tmp`, 'w');
  writeSync(fd, `${JSON.stringify(benchView(`P-${k}`, PER_VIEW), null, 2)}\n`);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}
const rawSeconds = (performance.now() - t0) / 1000;

const ingestCpu = process.cpuUsage();
// The store: batched ingest (putMany = one transaction of VIEWS_PER_TX views).
const store = new JsonFileEvidenceStore(join(dir, 'ledger'));
t0 = performance.now();
for (let k = 0; k < TOTAL / PER_VIEW; k += VIEWS_PER_TX) {
  const batch = [];
  for (let j = k; j < Math.min(k + VIEWS_PER_TX, TOTAL / PER_VIEW); j += 1) batch.push(benchView(`P-${j}`, PER_VIEW));
  await store.putMany(batch);
}
const ingestSeconds = (performance.now() - t0) / 1000;
const ingestUsed = process.cpuUsage(ingestCpu);
const ingestCpuSeconds = (ingestUsed.user + ingestUsed.system) / 1e6;

const singleViewPuts = await measureSingleViewPuts(new JsonFileEvidenceStore(join(dir, 'single')), TOTAL, PER_VIEW);

// Read latency, extend and the audit-chain verify.
const readPath = await measureReadPath(store, TOTAL);
await store.close();
rmSync(dir, { recursive: true, force: true });

// The event log alone: build and verify a chain of 100,000 snapshot events.
const chainEvents = Array.from({ length: 100_000 }, (_, i) => ({
  type: 'snapshot_committed',
  at: '2026-09-01T00:00:00.000Z',
  proposition_id: `P-${i}`,
  view_id: 'v1',
  content_digest: 'b'.repeat(64),
  parent_view_id: null,
  records: 1000,
}));
t0 = performance.now();
const built = buildChainEntries(EMPTY_ANCHOR, chainEvents);
const chainBuildSeconds = (performance.now() - t0) / 1000;
t0 = performance.now();
const chainOnly = verifyChain(built.entries, built.anchor);
const chainVerifySeconds = (performance.now() - t0) / 1000;
if (!chainOnly.ok) throw new Error('chain-only verify failed');

const result = {
  bench: '@ewp/ledger JSON-file store',
  machine: machineNote(),
  config: { records: TOTAL, records_per_view: PER_VIEW, views_per_transaction: VIEWS_PER_TX },
  baseline_plain_json_files: { records_per_s: Math.round(TOTAL / rawSeconds), seconds: rawSeconds },
  ingest: {
    records_per_s: Math.round(TOTAL / ingestSeconds),
    seconds: ingestSeconds,
    ratio_to_baseline: rawSeconds / ingestSeconds,
    cpu_seconds: ingestCpuSeconds,
    records_per_cpu_s: Math.round(TOTAL / ingestCpuSeconds),
  },
  ingest_one_view_per_transaction: singleViewPuts,
  read_latency: readPath.read_latency,
  extend_1000_record_snapshot: readPath.extend_1000_record_snapshot,
  chain_only: {
    entries: 100_000,
    append_entries_per_s: Math.round(100_000 / chainBuildSeconds),
    verify_entries_per_s: Math.round(100_000 / chainVerifySeconds),
  },
  audit_verify: readPath.audit_verify,
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
const f = figure;
const { 'audit verify (log + every row)': auditRow, ...pathRows } = readPathRows(singleViewPuts, readPath);
console.log(`@ewp/ledger JSON-file bench — ${result.machine.cpu} x${result.machine.cores}, load ${f(result.machine.loadavg_1m ?? 0)}, ${process.version}`);
console.table({
  'plain JSON files (baseline)': { value: `${f(result.baseline_plain_json_files.records_per_s)} rec/s`, ratio: '1.00' },
  'store ingest': { value: `${f(result.ingest.records_per_s)} rec/s`, ratio: f(result.ingest.ratio_to_baseline) },
  ...pathRows,
  'event log alone: append': { value: `${f(result.chain_only.append_entries_per_s)} entries/s` },
  'event log alone: verify': { value: `${f(result.chain_only.verify_entries_per_s)} entries/s` },
  'audit verify (log + every row)': auditRow,
});
console.log(`wrote ${OUT}`);
