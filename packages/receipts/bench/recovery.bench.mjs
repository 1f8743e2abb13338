// Recovery planning: the reference workload of BENCHMARK.md through the facade (N = 100 … 1600 and
// beyond), then the planner alone on chains and random DAGs of 1,000 to 1,000,000 nodes.
// Usage: node bench/recovery.bench.mjs   (EWP_BENCH_QUICK=1 stops at 100,000 nodes)
// Results: <repo>/bench/results/receipts-recovery.json
import os from 'node:os';
import { DependencyGraph, EvidenceBound, actionAfterRecovery, planRecovery, verifyCheckpoint } from '../dist/index.js';
import { QUICK, fmt, machine, medianMs, table, timed, writeResults } from '../../../bench/machine.mjs';

// Python reference medians for invalidate() (BENCHMARK.md, same machine kind).
const PYTHON_INVALIDATE_MS = { 100: 10.6, 200: 30.1, 400: 102.9, 800: 379.4, 1600: 1552.8 };
const PYTHON_PLAN_MS = { 100: 10.2, 200: 30.0, 400: 100.9, 800: 374.2, 1600: 1518.0 };

const pad = (i, n) => `n${String(i).padStart(String(n - 1).length, '0')}`;

/** BENCHMARK.md workload: a chain through the facade, all verified ALLOW, invalidate at 3N/4. */
function referenceWorkload(n) {
  const build = () => {
    const eb = new EvidenceBound({ policy_id: 'benchmark', version: '1' });
    for (let i = 0; i < n; i++) {
      eb.createCheckpoint({
        checkpoint_id: pad(i, n),
        agent: 'bench',
        evidence: [{ evidence_id: 'e', payload: { v: 1 }, provenance: { source: 'synthetic', locator: 'urn:bench' } }],
        output: { node: i },
        depends_on: i ? [pad(i - 1, n)] : [],
      });
      eb.verify(pad(i, n));
    }
    return eb;
  };
  const runs = n <= 400 ? 7 : n <= 1600 ? 5 : 3;
  const times = [];
  const sorts = [];
  let buildMs = 0;
  let plan;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const eb = build();
    buildMs = performance.now() - t0;
    const t1 = performance.now();
    plan = eb.invalidate(pad((3 * n) / 4, n), 'worker_failed'); // includes building the graph
    times.push(performance.now() - t1);
    sorts.push(
      medianMs(
        () =>
          new DependencyGraph(
            eb
              .graph()
              .topologicalOrder()
              .map((id) => eb.checkpoint(id)),
          ),
        3,
      ),
    );
  }
  times.sort((a, b) => a - b);
  sorts.sort((a, b) => a - b);
  const k = plan.recompute.length;
  return {
    nodes: n,
    recompute: k,
    reusable: plan.reusable.length,
    requires_verification: plan.requires_verification.length,
    requirement_entries: (k * (k + 1)) / 2,
    build_and_verify_ms: buildMs,
    one_topological_sort_ms: sorts[Math.floor(sorts.length / 2)],
    invalidate_median_ms: times[Math.floor(times.length / 2)],
    invalidate_min_ms: times[0],
    python_invalidate_median_ms: PYTHON_INVALIDATE_MS[n] ?? null,
  };
}

function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function chainNodes(n) {
  const nodes = [];
  for (let i = 0; i < n; i++) nodes.push({ checkpoint_id: pad(i, n), depends_on: i ? [pad(i - 1, n)] : [] });
  return nodes;
}

/** Each node depends on 1–3 uniformly chosen earlier nodes (a DAG by construction). */
function randomDagNodes(n, seed = 42) {
  const rnd = lcg(seed);
  const ids = Array.from({ length: n }, (_, i) => pad(i, n));
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const deps = new Set();
    if (i > 0) {
      const k = 1 + Math.floor(rnd() * 3);
      for (let j = 0; j < k; j++) deps.add(ids[Math.floor(rnd() * i)]);
    }
    nodes.push({ checkpoint_id: ids[i], depends_on: [...deps] });
  }
  return nodes;
}

/** The planner alone: bound ALLOW results everywhere (binding proven by the caller), one or three invalidations. */
function plannerRun(kind, n) {
  // Round-trip through JSON so ids are flat strings, as when read from storage or the wire.
  const nodes = JSON.parse(JSON.stringify(kind === 'chain' ? chainNodes(n) : randomDagNodes(n)));
  const verification = new Map(nodes.map((x) => [x.checkpoint_id, { checkpoint_id: x.checkpoint_id, action: 'ALLOW' }]));
  const invalid =
    kind === 'chain'
      ? { [pad((3 * n) / 4, n)]: 'worker_failed' }
      : Object.fromEntries([0.001, 0.3, 0.6].map((f) => [pad(Math.floor(f * n), n), 'evidence_changed']));
  const runs = n >= 1_000_000 ? 3 : 5;
  let graph;
  const build = timed(() => {
    graph = new DependencyGraph(nodes);
  }, runs);
  const buildMs = build.median_ms;
  let plan;
  const planTimes = timed(() => {
    plan = planRecovery(graph, invalid, verification, [nodes[n - 1].checkpoint_id], { isBound: () => true });
  }, runs);
  const planMs = planTimes.median_ms;
  const last = nodes[n - 1].checkpoint_id;
  let requirements;
  const requirementsMs = medianMs(() => {
    requirements = plan.requirementsFor(last);
  }, 3);
  const gateMs = medianMs(() => actionAfterRecovery(last, plan, verification), 3);
  return {
    kind,
    nodes: n,
    edges: nodes.reduce((s, x) => s + x.depends_on.length, 0),
    invalidated_roots: Object.keys(invalid).length,
    recompute: plan.recompute.length,
    reusable: plan.reusable.length,
    graph_build_ms: buildMs,
    graph_build_min_ms: build.min_ms,
    graph_build_cpu_ms: build.cpu_median_ms,
    plan_ms: planMs,
    plan_min_ms: planTimes.min_ms,
    plan_cpu_ms: planTimes.cpu_median_ms,
    plan_per_node_us: (planMs * 1000) / n,
    last_node_requirements: requirements?.length ?? 0,
    requirements_for_last_ms: requirementsMs,
    action_after_recovery_last_ms: gateMs,
    under_2s: planMs < 2000,
    load_average: os.loadavg()[0],
  };
}

/** Full plan including the receipt re-check of every unaffected result (three digests each). */
function fullBindingRun(n) {
  const nodes = chainNodes(n).map((x, i) => ({
    checkpoint_id: x.checkpoint_id,
    agent: 'bench',
    evidence: [
      {
        evidence_id: 'e',
        payload: { v: 1 },
        provenance: { source: 'synthetic', locator: 'urn:bench', retrieved_at: null, content_type: null, metadata: {} },
        observed_at: null,
        valid_until: null,
        explicitly_refuted: false,
      },
    ],
    output: { node: i },
    policy: { policy_id: 'benchmark', version: '1', require_provenance: true, consequential: true },
    depends_on: x.depends_on,
    operation_id: null,
    schema_version: '1',
  }));
  const verification = new Map(nodes.map((cp) => [cp.checkpoint_id, verifyCheckpoint(cp)]));
  const graph = new DependencyGraph(nodes);
  let plan;
  const planMs = medianMs(() => {
    plan = planRecovery(graph, { [pad((3 * n) / 4, n)]: 'worker_failed' }, verification);
  }, 3);
  return { nodes: n, reusable: plan.reusable.length, plan_with_receipt_checks_ms: planMs, per_reusable_node_us: (planMs * 1000) / plan.reusable.length };
}

const m = machine();
console.log(
  `receipts recovery bench — ${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${m.load_average_1_5_15.join(' ')}${QUICK ? ' (quick)' : ''}\n`,
);

const refSizes = QUICK ? [100, 200, 400, 800, 1600] : [100, 200, 400, 800, 1600, 3200, 10_000];
const reference = refSizes.map(referenceWorkload);
console.log('BENCHMARK.md workload through EvidenceBound.invalidate() (graph build included), vs the Python reference');
console.log(
  table(
    reference.map((r, i) => ({
      nodes: r.nodes,
      recompute: r.recompute,
      reusable: r.reusable,
      'requirement entries': r.requirement_entries,
      'build+verify ms': fmt(r.build_and_verify_ms),
      '1 topo sort ms': fmt(r.one_topological_sort_ms, 2),
      'invalidate ms (median)': fmt(r.invalidate_median_ms, 2),
      'x topo sort': fmt(r.invalidate_median_ms / r.one_topological_sort_ms, 1),
      'growth per step': i === 0 ? '' : fmt(r.invalidate_median_ms / reference[i - 1].invalidate_median_ms, 2),
      'Python ms': r.python_invalidate_median_ms ?? '',
      'speed-up vs Python': r.python_invalidate_median_ms ? fmt(r.python_invalidate_median_ms / r.invalidate_median_ms, 0) : '',
    })),
    [
      'nodes',
      'recompute',
      'reusable',
      'requirement entries',
      'build+verify ms',
      '1 topo sort ms',
      'invalidate ms (median)',
      'x topo sort',
      'growth per step',
      'Python ms',
      'speed-up vs Python',
    ],
  ),
);

const sizes = QUICK ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
const planner = [];
for (const kind of ['chain', 'random-dag']) for (const n of sizes) planner.push(plannerRun(kind, n));
console.log('\nplanRecovery alone (bound ALLOW results everywhere; requirements computed on demand)');
console.log(
  table(
    planner.map((r) => ({
      graph: r.kind,
      nodes: r.nodes,
      edges: r.edges,
      roots: r.invalidated_roots,
      recompute: r.recompute,
      reusable: r.reusable,
      'graph build ms': fmt(r.graph_build_ms),
      'plan ms': fmt(r.plan_ms),
      'plan min ms': fmt(r.plan_min_ms),
      'plan cpu ms': fmt(r.plan_cpu_ms),
      'plan/build': fmt(r.plan_ms / r.graph_build_ms, 2),
      'µs/node': fmt(r.plan_per_node_us, 2),
      'reqs(last) ms': fmt(r.requirements_for_last_ms, 1),
      '< 2 s': r.under_2s ? 'yes' : 'NO',
    })),
    [
      'graph',
      'nodes',
      'edges',
      'roots',
      'recompute',
      'reusable',
      'graph build ms',
      'plan ms',
      'plan min ms',
      'plan cpu ms',
      'plan/build',
      'µs/node',
      'reqs(last) ms',
      '< 2 s',
    ],
  ),
);

const bindingSizes = QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const binding = bindingSizes.map(fullBindingRun);
console.log('\nplanRecovery re-checking every result receipt (verifyVerificationReceipt: 3 digests per reusable node)');
console.log(
  table(
    binding.map((r) => ({
      nodes: r.nodes,
      reusable: r.reusable,
      'plan ms': fmt(r.plan_with_receipt_checks_ms),
      'µs per reusable node': fmt(r.per_reusable_node_us, 1),
    })),
    ['nodes', 'reusable', 'plan ms', 'µs per reusable node'],
  ),
);

const path = writeResults('receipts-recovery', {
  python_reference: { invalidate_median_ms: PYTHON_INVALIDATE_MS, plan_recovery_ms: PYTHON_PLAN_MS, source: 'BENCHMARK.md' },
  reference_workload: reference,
  planner,
  planner_with_receipt_checks: binding,
});
console.log(`\nwrote ${path}`);
