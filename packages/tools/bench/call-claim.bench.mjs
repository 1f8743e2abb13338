// What the once-per-call rule adds to a guarded run on SQLite: runGuarded with a call id (the
// execution claim and the `decision.call` claim in one write) against runGuarded without one (the
// execution claim alone), blocks interleaved in one run, p50 and p90 per run. The executed action is
// a no-op, so the figures are the gate's own cost.
// Usage: node bench/call-claim.bench.mjs (after building @ewp/tools and its dependencies)
// Results: <repo>/bench/results/tools-call-claim.json
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { QUICK, fmt, machine, table, writeResults } from '../../../bench/machine.mjs';
import { runGuarded } from '../dist/index.js';

const verified = JSON.parse(readFileSync(new URL('../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url), 'utf8'));
const action = { action_id: 'restart-server01', kind: 'restart', risk: 'high', reversible: false };
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-call-claim-'));
const store = new SqliteEvidenceStore(join(dir, 'ledger.sqlite'));
let n = 0;
// Every run decides at its own T (a decision of its own) and, with a call id, names a call of its own.
const T0 = Date.parse('2026-09-21T21:00:00Z');
const run = (withCallId) => {
  const i = ++n;
  return runGuarded(
    { store, proposition: 'P-win', action, now: () => new Date(T0 + i), record: { gate: 'bench' }, ...(withCallId ? { callId: () => `call-${i}` } : {}) },
    {},
    () => i,
  );
};
try {
  await store.put(verified);
  for (let i = 0; i < 200; i++) {
    await run(false);
    await run(true);
  }
  const blocks = QUICK ? 10 : 40;
  const perBlock = 50;
  const times = { 'no call id': [], 'call id': [] };
  for (let b = 0; b < blocks; b++) {
    const order = b % 2 === 0 ? [false, true] : [true, false];
    for (const withCallId of order) {
      for (let i = 0; i < perBlock; i++) {
        const t0 = performance.now();
        await run(withCallId);
        times[withCallId ? 'call id' : 'no call id'].push(performance.now() - t0);
      }
    }
  }
  const row = (mode) => ({ mode, runs: times[mode].length, p50_ms: quantile(times[mode], 0.5), p90_ms: quantile(times[mode], 0.9) });
  const rows = [row('no call id'), row('call id')];
  const added = { p50_ms: rows[1].p50_ms - rows[0].p50_ms, p90_ms: rows[1].p90_ms - rows[0].p90_ms, p50_ratio: rows[1].p50_ms / rows[0].p50_ms };
  const m = machine();
  console.log(`runGuarded on SQLite, with and without a call id (${m.cpu}, ${m.cores} cores, node ${m.node}${QUICK ? ', quick' : ''})`);
  console.log(
    table(
      rows.map((r) => ({ mode: r.mode, runs: r.runs, 'p50 ms': fmt(r.p50_ms, 3), 'p90 ms': fmt(r.p90_ms, 3) })),
      ['mode', 'runs', 'p50 ms', 'p90 ms'],
    ),
  );
  console.log(`the call claim adds ${fmt(added.p50_ms, 3)} ms p50 (ratio ${fmt(added.p50_ratio, 2)})`);
  const path = writeResults('tools-call-claim', {
    description:
      'runGuarded (decide, record, claim, execute a no-op, record the outcome) on a SQLite file, with a call id against without one, interleaved blocks',
    rows,
    added,
  });
  console.log(`results: ${path}`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
