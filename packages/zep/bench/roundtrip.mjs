// Round-trip cost of the Zep adapter (official client, local v2 graph server): every pack fixture written and read back (digest-verified),
// against an in-process baseline that only decodes and clones. Imports the built dist/ (run `pnpm build`).
// Usage: node bench/roundtrip.mjs [--quick]   → bench/results/zep-roundtrip.json
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { decodeView } from '@ewp/core';
import { zepSubject } from '../dist/conformance.js';

const quick = process.argv.includes('--quick');
const passes = quick ? 1 : 3;
const fixtures = adapterFixtures().map((f) => decodeView(f.raw));
const records = fixtures.reduce((n, v) => n + v.assertions.length + v.evidence.length, 0);

const baseline = {
  name: 'baseline (decode + clone, no store)',
  async create() {
    const m = new Map();
    return { write: async (v) => void m.set(v.proposition_id, structuredClone(decodeView(v))), read: async (p) => decodeView(m.get(p)) };
  },
};

async function measure(subject) {
  const times = [];
  for (let p = 0; p < passes; p++) {
    const start = performance.now();
    for (const view of fixtures) {
      const adapter = await subject.create();
      await adapter.write(view);
      await adapter.read(view.proposition_id, { viewId: view.view_id });
    }
    times.push(performance.now() - start);
  }
  await subject.dispose?.();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows = [];
for (const subject of [baseline, zepSubject()]) {
  const ms = await measure(subject);
  rows.push({ adapter: subject.name, total_ms: ms, per_fixture_ms: ms / fixtures.length, per_record_ms: ms / records });
}
const base = rows[0].total_ms;
for (const r of rows) r.ratio_vs_baseline = r.total_ms / base;

const result = {
  benchmark: 'zep-roundtrip',
  date: new Date().toISOString(),
  machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` },
  quick,
  fixtures: fixtures.length,
  records,
  passes,
  rows,
};
const out = new URL('../../../bench/results/zep-roundtrip.json', import.meta.url);
mkdirSync(new URL('.', out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`zep round trip: ${fixtures.length} fixtures (${records} records), median of ${passes} pass(es), ${result.machine.cpu} x${result.machine.cores}, node ${process.version}`);
console.table(rows.map((r) => ({ adapter: r.adapter, 'total ms': r.total_ms.toFixed(1), 'ms/fixture': r.per_fixture_ms.toFixed(2), 'ms/record': r.per_record_ms.toFixed(3), 'x baseline': r.ratio_vs_baseline.toFixed(1) })));
