// Decisions that last: (1) what recording adds to a gated call on SQLite — decideGate with recording
// on against the same gate with recording off, interleaved in one run, p50 and p90 per call; (2)
// invalidation planning over ledgers of 10,000 and 100,000 propositions with 1,000 and 10,000
// recorded actions: the lineage planner alone, and the whole ledger plan (planLedgerRecovery).
// Usage: node bench/decisions.bench.mjs (after building @ewp/tools and its dependencies)
// Results: <repo>/bench/results/tools-decisions.json
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { planReevaluation } from '@ewp/receipts';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { QUICK, fmt, machine, table, writeResults } from '../../../bench/machine.mjs';
import { decide, decideGate, planLedgerRecovery, recordRetraction } from '../dist/index.js';

const verified = JSON.parse(readFileSync(new URL('../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url), 'utf8'));
const action = { action_id: 'restart-server01', kind: 'restart', risk: 'high', reversible: false };
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Gate cost on a SQLite file: blocks of calls alternate between recording off and on. */
async function gateCost() {
  const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-decisions-'));
  const store = new SqliteEvidenceStore(join(dir, 'ledger.sqlite'));
  try {
    await store.put(verified);
    const off = { store, proposition: 'P-win', action, record: false };
    const on = { store, proposition: 'P-win', action, record: { gate: 'bench' } };
    for (let i = 0; i < 300; i++) {
      await decideGate(off, {});
      await decideGate(on, {});
    }
    const blocks = QUICK ? 10 : 40;
    const perBlock = 50;
    const times = { off: [], on: [] };
    for (let b = 0; b < blocks; b++) {
      for (const [name, opts] of b % 2 === 0
        ? [
            ['off', off],
            ['on', on],
          ]
        : [
            ['on', on],
            ['off', off],
          ]) {
        for (let i = 0; i < perBlock; i++) {
          const t0 = performance.now();
          await decideGate(opts, {});
          times[name].push(performance.now() - t0);
        }
      }
    }
    const row = (name) => ({ mode: name, calls: times[name].length, p50_ms: quantile(times[name], 0.5), p90_ms: quantile(times[name], 0.9) });
    const rows = [row('off'), row('on')];
    const added = { p50_ms: rows[1].p50_ms - rows[0].p50_ms, p90_ms: rows[1].p90_ms - rows[0].p90_ms, p50_ratio: rows[1].p50_ms / rows[0].p50_ms };
    const entries = (await store.readEntries({ kind: 'decision', limit: 100000 })).length;
    return { rows, added, decisions_in_ledger_at_end: entries };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A random lineage forest: each proposition derived from 0-2 earlier ones. Deterministic. */
function lineage(n) {
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const out = [];
  for (let i = 0; i < n; i++) {
    const k = i === 0 ? 0 : Math.floor(rnd() * 3);
    const from = new Set();
    for (let j = 0; j < k; j++) from.add(`P-${Math.floor(rnd() * i)}`);
    out.push({ proposition_id: `P-${i}`, derived_from: [...from] });
  }
  const actions = [];
  for (let a = 0; a < n / 10; a++) actions.push({ action_id: `A-${a}`, uses: [`P-${Math.floor(rnd() * n)}`] });
  const changed = new Set();
  while (changed.size < 10) changed.add(`P-${Math.floor(rnd() * n)}`);
  return { lineage: out, actions, changed: [...changed] };
}

function plannerAlone(n) {
  const input = lineage(n);
  planReevaluation(input);
  const times = [];
  let plan;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    plan = planReevaluation(input);
    times.push(performance.now() - t0);
  }
  return {
    propositions: n,
    actions: input.actions.length,
    changed: input.changed.length,
    plan_ms: quantile(times, 0.5),
    reevaluate: plan.propositions.length,
    held: plan.actions.length,
  };
}

/** The whole plan over a memory ledger: n propositions (lineage as above), n/10 recorded decisions, 10 changes. */
async function ledgerPlan(n) {
  const input = lineage(n);
  const store = new MemoryEvidenceStore();
  const views = input.lineage.map((p) => ({
    ...verified,
    proposition_id: p.proposition_id,
    view_id: `v-${p.proposition_id}`,
    assertions: verified.assertions.map((a) => ({ ...a, proposition_id: p.proposition_id })),
    evidence: verified.evidence.map((e) => ({ ...e, proposition_id: p.proposition_id })),
    lineage: p.derived_from.map((to) => ({ from_id: p.proposition_id, to_id: to, kind: 'derived_from' })),
  }));
  for (let i = 0; i < views.length; i += 5000) await store.putMany(views.slice(i, i + 5000));
  const t0 = performance.now();
  for (const a of input.actions) {
    await decide({
      store,
      propositions: a.uses,
      action: { ...action, action_id: a.action_id },
      evaluatedAt: '2026-09-21T21:00:00Z',
      record: { gate: 'bench' },
    });
  }
  const recordMs = performance.now() - t0;
  for (const pid of input.changed) await recordRetraction(store, { proposition_id: pid, records: ['check:k1'] });
  const t1 = performance.now();
  const plan = await planLedgerRecovery(store);
  const planMs = performance.now() - t1;
  await store.close();
  return {
    propositions: n,
    decisions: plan.decisions,
    changed: Object.keys(plan.changed).length,
    reevaluate: plan.reevaluate.length,
    held: plan.held.length,
    record_ms_per_decision: recordMs / input.actions.length,
    plan_ms: planMs,
  };
}

const gate = await gateCost();
console.log(`gate on SQLite (${machine().cpu ?? ''}): recording off vs on, interleaved blocks`);
console.log(
  table(
    gate.rows.map((r) => ({ ...r, p50_ms: fmt(r.p50_ms, 3), p90_ms: fmt(r.p90_ms, 3) })),
    ['mode', 'calls', 'p50_ms', 'p90_ms'],
  ),
);
console.log(`added by recording: p50 ${fmt(gate.added.p50_ms, 3)} ms (x${fmt(gate.added.p50_ratio, 2)}), p90 ${fmt(gate.added.p90_ms, 3)} ms`);
// Warm the planner first, so the smaller ledger is not measured while the code is still being compiled.
for (let i = 0; i < 3; i++) plannerAlone(10_000);
const planner = [plannerAlone(10_000), plannerAlone(100_000)];
console.log(
  table(
    planner.map((r) => ({ ...r, plan_ms: fmt(r.plan_ms) })),
    ['propositions', 'actions', 'changed', 'plan_ms', 'reevaluate', 'held'],
  ),
);
const whole = [];
for (const n of QUICK ? [10_000] : [10_000, 100_000]) whole.push(await ledgerPlan(n));
console.log(
  table(
    whole.map((r) => ({ ...r, plan_ms: fmt(r.plan_ms), record_ms_per_decision: fmt(r.record_ms_per_decision, 3) })),
    ['propositions', 'decisions', 'changed', 'reevaluate', 'held', 'record_ms_per_decision', 'plan_ms'],
  ),
);
const path = writeResults('tools-decisions', { gate_sqlite: gate, planner_alone: planner, ledger_plan_memory: whole });
console.log(`results: ${path}`);
