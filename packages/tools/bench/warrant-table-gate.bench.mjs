// The gate and ewp_may_act through the store's warrant table, against the same calls evaluating the
// warrant per call (warrantNow), on distinct propositions of one SQLite ledger, in one run. The baseline
// is the same code over the same store seen without `revision` (a store that cannot say its revision
// keeps no table entry, so the warrant is evaluated per call); both modes go through the same kind of
// wrapper. Modes alternate in short windows and the median of the per-pair ratios is kept.
// Usage: node bench/warrant-table-gate.bench.mjs [EWP_BENCH_RECORDS=n: n more checks and evidence items a view] (after building @ewp/tools)
// Results: <repo>/bench/results/tools-warrant-table-gate.json (tools-warrant-table-gate-<n>.json with EWP_BENCH_RECORDS=n)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { QUICK, fmt, load, table, writeResults } from '../../../bench/machine.mjs';
import { REFERENCE_V2, warrantNow } from '@ewp/core';
import { decideGate, latestWarrant, runTool, toolContext } from '../dist/index.js';

const N = QUICK ? 500 : 2_000;
/** Records per view beyond the fixture's (`EWP_BENCH_RECORDS`, default 0): the warrant's cost grows with them. */
const EXTRA = Number(process.env.EWP_BENCH_RECORDS ?? 0);
const fixture = JSON.parse(readFileSync(new URL('../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url), 'utf8'));
const action = { id: 'restart-server01', kind: 'restart', risk: 'high', reversible: false };

/** The fixture under `pid`, with `extra` more supporting checks and evidence items (from as many sources). */
function viewOf(pid, extra) {
  const v = structuredClone(fixture);
  v.proposition_id = pid;
  for (const a of v.assertions) a.proposition_id = pid;
  for (const e of v.evidence) e.proposition_id = pid;
  const [check] = v.checks;
  const [item] = v.evidence;
  for (let i = 0; i < extra; i++) {
    const source = { ...check.source, source_id: `probe-${i}`, lineage_id: `L-${i % 4}`, content_hash: `sha256:probe-${i}` };
    v.checks.push({ ...check, check_id: `k-${i}`, source });
    v.evidence.push({ ...item, evidence_id: `e-${i}`, source, content: `observation ${i}` });
  }
  return v;
}

/** The store as a caller holds it; `revision: false` hides the revision (no table entry is kept). */
function held(store, revision) {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'revision' && !revision) return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Calls/s of one window of `calls` calls of `call(pid)` over the propositions in turn from `start`. */
async function window(call, start, calls) {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await call(`P-${(start + i) % N}`);
  return (calls * 1000) / (performance.now() - t0);
}

async function compare(name, makeCall, store) {
  const withTable = makeCall(held(store, true));
  const without = makeCall(held(store, false));
  // Warm both (the table's first walk computes every piece).
  for (let i = 0; i < N; i++) {
    await withTable(`P-${i}`);
    await without(`P-${i}`);
  }
  const rounds = QUICK ? 7 : 21;
  const calls = QUICK ? 200 : 500;
  const ratios = [];
  const best = { table: 0, direct: 0 };
  let at = 0;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['direct', 'table'] : ['table', 'direct'];
    const got = {};
    for (const mode of order) {
      got[mode] = await window(mode === 'table' ? withTable : without, at, calls);
      best[mode] = Math.max(best[mode], got[mode]);
    }
    at += calls;
    ratios.push(got.table / got.direct);
  }
  ratios.sort((a, b) => a - b);
  return {
    path: name,
    direct_calls_per_s: Math.round(best.direct),
    table_calls_per_s: Math.round(best.table),
    ratio_median: ratios[Math.floor(rounds / 2)],
    ratio_min: ratios[0],
    ratio_max: ratios[rounds - 1],
  };
}

const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-warrant-table-gate-'));
const store = new SqliteEvidenceStore(join(dir, 'ledger.sqlite'));
try {
  await store.putMany(Array.from({ length: N }, (_, i) => viewOf(`P-${i}`, EXTRA)));
  const loadBefore = load();
  const clock = () => new Date();
  const rows = [
    // A framework binding's gate deciding without recording (record: false).
    await compare(
      'decideGate, unrecorded',
      (s) => (pid) => decideGate({ store: s, proposition: pid, action, record: false, now: clock }, {}, { gate: 'bench', tool: 'restart', callId: undefined }),
      store,
    ),
    // ewp_may_act for an anonymous caller (decided as recorded, appended nowhere), as MCP and every binding run it.
    await compare(
      'ewp_may_act (runTool, anonymous)',
      (s) => {
        const context = toolContext({ store: s, ingest: false, now: clock });
        return async (pid) => {
          const out = await runTool('ewp_may_act', { proposition_id: pid, action: { risk: 'high', reversible: false } }, context);
          if (!out.ok) throw out.refusal;
        };
      },
      store,
    ),
    // A reader of the warrant alone (the bindings' memory readers): the baseline is what they did before, a read and warrantNow.
    await compare(
      'latestWarrant (binding readers)',
      (s) =>
        s.revision === undefined
          ? async (pid) => warrantNow(await s.get(pid), REFERENCE_V2, clock().toISOString())
          : (pid) => latestWarrant(s, pid, clock().toISOString()),
      store,
    ),
    // A recorded gate: every decision is a commit, so the revision moves on every call.
    await compare(
      'decideGate, recorded',
      (s) => (pid) =>
        decideGate({ store: s, proposition: pid, action, record: { gate: 'bench' }, now: clock }, {}, { gate: 'bench', tool: 'restart', callId: undefined }),
      store,
    ),
  ];
  console.log(
    `${N} distinct propositions of ${1 + EXTRA} checks each, SQLite file; load average ${loadBefore.join(' / ')} before, ${load().join(' / ')} after`,
  );
  console.log(
    table(
      rows.map((r) => ({ ...r, ratio_median: fmt(r.ratio_median, 2), ratio_min: fmt(r.ratio_min, 2), ratio_max: fmt(r.ratio_max, 2) })),
      Object.keys(rows[0]),
    ),
  );
  console.log(
    writeResults(`tools-warrant-table-gate${EXTRA === 0 ? '' : `-${EXTRA}`}`, {
      propositions: N,
      extra_records_per_view: EXTRA,
      load_before: loadBefore,
      load_after: load(),
      rows,
    }),
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
