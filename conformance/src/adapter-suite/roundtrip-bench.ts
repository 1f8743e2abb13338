import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { decodeView, type EvidenceView } from '@ewp/core';
import type { AdapterSubject } from './memory-adapter.js';
import { adapterFixtures } from './pack-fixtures.js';

/** One measured subject of {@link runRoundTripBench}. */
export interface RoundTripBenchRow {
  adapter: string;
  total_ms: number;
  per_fixture_ms: number;
  per_record_ms: number;
  ratio_vs_baseline: number;
}

type BenchedSubject = Pick<AdapterSubject, 'name' | 'create' | 'dispose'>;

/** The floor every adapter is measured against: decode and clone in memory, no store. */
const baseline: BenchedSubject = {
  name: 'baseline (decode + clone, no store)',
  async create() {
    const m = new Map<string, EvidenceView>();
    return {
      put: async (v) => void m.set(decodeView(v).proposition_id, structuredClone(decodeView(v))),
      get: async (p) => decodeView(m.get(p)),
    };
  },
};

/**
 * Round-trip cost of adapters: every pack fixture written and read back through a fresh adapter,
 * the median of 3 passes (1 with `quick`), against the in-process baseline measured in the same run.
 * Writes `<adapter>-roundtrip` JSON to `out` and prints a table.
 */
export async function runRoundTripBench(adapter: string, subjects: BenchedSubject[], options: { quick: boolean; out: URL }): Promise<void> {
  const { quick, out } = options;
  const passes = quick ? 1 : 3;
  const fixtures = adapterFixtures().map((f) => decodeView(f.raw));
  const records = fixtures.reduce((n, v) => n + v.assertions.length + v.evidence.length, 0);

  async function measure(subject: BenchedSubject): Promise<number> {
    const times: number[] = [];
    for (let p = 0; p < passes; p++) {
      const start = performance.now();
      for (const view of fixtures) {
        const memory = await subject.create();
        await memory.put(view);
        await memory.get(view.proposition_id, view.view_id);
      }
      times.push(performance.now() - start);
    }
    await subject.dispose?.();
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)] as number;
  }

  const rows: RoundTripBenchRow[] = [];
  for (const subject of [baseline, ...subjects]) {
    const ms = await measure(subject);
    rows.push({ adapter: subject.name, total_ms: ms, per_fixture_ms: ms / fixtures.length, per_record_ms: ms / records, ratio_vs_baseline: 0 });
  }
  const base = (rows[0] as RoundTripBenchRow).total_ms;
  for (const r of rows) r.ratio_vs_baseline = r.total_ms / base;

  const result = {
    benchmark: `${adapter}-roundtrip`,
    date: new Date().toISOString(),
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    quick,
    fixtures: fixtures.length,
    records,
    passes,
    rows,
  };
  mkdirSync(new URL('.', out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `${adapter} round trip: ${fixtures.length} fixtures (${records} records), median of ${passes} pass(es), ${result.machine.cpu} x${result.machine.cores}, node ${process.version}`,
  );
  console.table(
    rows.map((r) => ({
      adapter: r.adapter,
      'total ms': r.total_ms.toFixed(1),
      'ms/fixture': r.per_fixture_ms.toFixed(2),
      'ms/record': r.per_record_ms.toFixed(3),
      'x baseline': r.ratio_vs_baseline.toFixed(1),
    })),
  );
}
