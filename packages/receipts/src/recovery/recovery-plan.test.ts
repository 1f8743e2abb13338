import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GraphError } from '../errors.js';
import type { VerificationResult } from '../checkpoint/verification.js';
import { DependencyGraph } from '../graph/dependency-graph.js';
import { actionAfterRecovery, planRecovery } from './recovery-plan.js';

const v = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/recovery-plans.json', import.meta.url)), 'utf8'));
const E = v.node_construction.E;
const node = (n: { checkpoint_id: string; depends_on: string[] }) => ({
  checkpoint_id: n.checkpoint_id,
  agent: 'a',
  evidence: [E],
  output: { n: n.checkpoint_id },
  policy: { policy_id: 'p', version: '1', require_provenance: true, consequential: true },
  depends_on: n.depends_on,
  operation_id: null,
  schema_version: '1',
});
const graphs = new Map<string, { nodes: { checkpoint_id: string; depends_on: string[] }[] }>(v.graphs.map((g: { id: string }) => [g.id, g]));
const build = (id: string) => new DependencyGraph((graphs.get(id)?.nodes ?? []).map(node));
const pool = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, key]) => [k, v.results_pool[key] as VerificationResult]));

describe('recovery-plans.json graphs (7)', () => {
  it('has 7 graphs', () => expect(v.graphs).toHaveLength(7));
  for (const g of v.graphs) {
    it(g.id, () => {
      const graph = build(g.id);
      expect(graph.checkpointIds()).toEqual(g.expected.checkpoint_ids_sorted);
      expect(graph.topologicalOrder()).toEqual(g.expected.topological_order);
      for (const [id, want] of Object.entries(g.expected.descendants)) expect(graph.descendants(id)).toEqual(want);
      for (const [id, want] of Object.entries(g.expected.ancestors)) expect(graph.ancestors(id)).toEqual(want);
      for (const b of g.expected.blast_radius) expect(graph.blastRadius(b.roots)).toEqual(b.result);
    });
  }
});

describe('recovery-plans.json graph_errors (10)', () => {
  it('has 10 cases', () => expect(v.graph_errors).toHaveLength(10));
  for (const c of v.graph_errors) {
    it(c.id, () => {
      const run = () => {
        if (c.nodes) return new DependencyGraph(c.nodes.map(node));
        const graph = build(c.graph);
        const call = { descendants: 'descendants', ancestors: 'ancestors', get: 'get', blast_radius: 'blastRadius' }[c.call as string] as 'descendants';
        return graph[call](c.argument);
      };
      expect(run).toThrow(GraphError);
      expect(run).toThrow(c.expected_error.message);
    });
  }
});

describe('recovery-plans.json plans (20)', () => {
  it('has 20 plans', () => expect(v.plans).toHaveLength(20));
  for (const p of v.plans) {
    it(p.id, () => {
      const graph = build(p.graph);
      const plan = planRecovery(graph, p.invalidations, pool(p.verification), p.consequential);
      const want = p.expected_plan;
      expect(plan.invalidated).toEqual(want.invalidated);
      expect(plan.recompute).toEqual(want.recompute);
      expect(plan.reusable).toEqual(want.reusable);
      expect(plan.requires_verification).toEqual(want.requires_verification);
      expect(plan.blocked).toEqual(want.blocked);
      expect({ ...plan.reasons }).toEqual(want.reasons);
      for (const [id, reason] of Object.entries(want.reasons)) expect(plan.reasonFor(id)).toBe(reason);
      for (const id of want.reusable) expect(plan.reasonFor(id)).toBeUndefined();
      expect(plan.reverification_requirements).toEqual(want.reverification_requirements);
      expect(JSON.parse(JSON.stringify(plan))).toEqual(want);
      for (const [set, actions] of Object.entries(p.expected_action_after_recovery)) {
        const reverified = pool(p.reverified_sets[set]);
        for (const [id, action] of Object.entries(actions as Record<string, string>)) {
          expect(actionAfterRecovery(id, plan, reverified), `${set}/${id}`).toBe(action);
        }
      }
      expect(actionAfterRecovery('not-a-node', plan, {})).toBe('BLOCK');
    });
  }
});

describe('reference benchmark workload counts (BENCHMARK.md)', () => {
  it('N = 100 chain: recompute 25, reusable 75, requires_verification 0, 325 requirement entries', () => {
    const N = 100;
    const ids = Array.from({ length: N }, (_, i) => `n${String(i).padStart(3, '0')}`);
    const graph = new DependencyGraph(ids.map((id, i) => ({ checkpoint_id: id, depends_on: i ? [ids[i - 1] as string] : [] })));
    const verification = Object.fromEntries(ids.map((id) => [id, { checkpoint_id: id, action: 'ALLOW' } as VerificationResult]));
    const plan = planRecovery(graph, { n075: 'worker_failed' }, verification, [], { isBound: () => true });
    expect(plan.recompute).toHaveLength(25);
    expect(plan.recompute[0]).toBe('n075');
    expect(plan.reusable).toHaveLength(75);
    expect(plan.requires_verification).toHaveLength(0);
    const entries = Object.values(plan.reverification_requirements).reduce((s, l) => s + l.length, 0);
    expect(entries).toBe(325);
  });
});
