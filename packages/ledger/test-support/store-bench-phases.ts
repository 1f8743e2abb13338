/**
 * The phases every store benchmark (JSON-file, SQLite, PostgreSQL) measures the same way, so their
 * figures stay comparable: the benchmark view, single-view puts, read latency, extend, audit verify,
 * the machine note and the common rows of the printed table. Each bench keeps its own baseline and
 * ingest, which differ by backend.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import type { EvidenceStore } from '../src/evidence-store.js';
import type { ChainVerification } from '@ewp/canonical';
import { source } from './fault-views.js';

/** A view of `records` evidence items over 50 shared sources. */
export function benchView(pid: string, records: number) {
  const evidence = [];
  for (let i = 0; i < records; i += 1) {
    evidence.push({
      evidence_id: `e${i}`,
      polarity: 'supports',
      source: source(`s${i % 50}`),
      content: `observation ${i} of ${pid}`,
      observed_at: '2026-09-01T00:00:00+00:00',
    });
  }
  return { proposition_id: pid, view_id: 'v1', evidence };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Records the read, extend and verify phases add to the store beyond the ingest. */
const READ_PATH_RECORDS = 10 + 1000 + 100_000 + 100;

/** Single-view transactions (what `ewp ingest` does) on a fresh store, which is closed after. */
export async function measureSingleViewPuts(single: EvidenceStore, total: number, perView: number) {
  const views = Math.max(1, Math.min(total / perView, 20));
  const t0 = performance.now();
  for (let k = 0; k < views; k += 1) await single.put(benchView(`P-${k}`, perView));
  const seconds = (performance.now() - t0) / 1000;
  await single.close();
  return { records_per_s: Math.round((views * perView) / seconds), views };
}

export interface ReadLatency {
  records: number;
  iterations: number;
  median_ms: number;
  p95_ms: number;
  cpu_ms_mean: number;
}

/**
 * Read latency of 10, 1,000 and 100,000-record views, then extends of the 1,000-record one, then the
 * audit-chain verify (log + every row against its event) over everything the store holds by then.
 * `ingested` is the number of records the bench put before.
 */
export async function measureReadPath(store: EvidenceStore, ingested: number) {
  const reads: Record<string, ReadLatency> = {};
  for (const [records, iterations] of [
    [10, 500],
    [1000, 200],
    [100_000, 5],
  ] as const) {
    const pid = `R-${records}`;
    await store.put(benchView(pid, records));
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
    await store.extend('R-1000', [
      {
        kind: 'evidence',
        record: { evidence_id: `x${i}`, polarity: 'supports', source: source('sx'), content: 'x', observed_at: '2026-09-01T00:00:00+00:00' },
      },
    ]);
    extendTimes.push(performance.now() - t);
  }

  const t0 = performance.now();
  const chain: ChainVerification = await store.verifyChain();
  const verifySeconds = (performance.now() - t0) / 1000;
  if (!chain.ok) throw new Error(`chain did not verify: ${JSON.stringify(chain)}`);
  return {
    read_latency: reads,
    extend_1000_record_snapshot: { median_ms: median(extendTimes), iterations: extendTimes.length },
    audit_verify: {
      entries: chain.length,
      entries_per_s: Math.round(chain.length / verifySeconds),
      records_per_s: Math.round((ingested + READ_PATH_RECORDS) / verifySeconds),
      seconds: verifySeconds,
    },
  };
}

export type ReadPath = Awaited<ReturnType<typeof measureReadPath>>;

export function machineNote() {
  return { cpu: cpus()[0]?.model, cores: cpus().length, memory_gb: Math.round(totalmem() / 2 ** 30), loadavg_1m: loadavg()[0], node: process.version };
}

/** A figure for the printed table. */
export const figure = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** The printed rows of the single-view ingest and the read path; `read1000Target` marks the 1,000-record read. */
export function readPathRows(singleViewPuts: { records_per_s: number }, path: ReadPath, read1000Target?: string) {
  const f = figure;
  const reads = path.read_latency;
  return {
    'store ingest, 1 view/tx': { value: `${f(singleViewPuts.records_per_s)} rec/s` },
    'read 10-record view': { value: `${f(reads['10']?.median_ms ?? 0)} ms median, ${f(reads['10']?.cpu_ms_mean ?? 0)} ms CPU` },
    'read 1,000-record view': {
      value: `${f(reads['1000']?.median_ms ?? 0)} ms median, ${f(reads['1000']?.cpu_ms_mean ?? 0)} ms CPU`,
      ...(read1000Target === undefined ? {} : { target: read1000Target }),
    },
    'read 100,000-record view': { value: `${f(reads['100000']?.median_ms ?? 0)} ms median, ${f(reads['100000']?.cpu_ms_mean ?? 0)} ms CPU` },
    'extend 1,000-record view': { value: `${f(path.extend_1000_record_snapshot.median_ms)} ms median` },
    'audit verify (log + every row)': { value: `${f(path.audit_verify.records_per_s)} stored rec/s (${path.audit_verify.entries} entries)` },
  };
}
