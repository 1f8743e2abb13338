import { domainDigest, ebcj1String } from '@ewp/canonical';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CheckpointError, GraphError, ReplayConflict } from '../errors.js';
import { ReplayGuard } from '../replay/replay-guard.js';
import { type EvidenceBoundEvent, EvidenceBound } from './evidence-bound.js';

const v = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/verification-scenarios.json', import.meta.url)), 'utf8'));
const E = {
  evidence_id: 'e1',
  payload: { value: 1 },
  provenance: { source: 'tool', locator: 'urn:example:source' },
};

describe('verification-scenarios.json auto_checkpoint_ids (5)', () => {
  it('has 5 cases', () => expect(v.auto_checkpoint_ids.cases).toHaveLength(5));
  for (const c of v.auto_checkpoint_ids.cases) {
    it(c.id, () => {
      expect(ebcj1String(c.id_input)).toBe(c.id_input_canonical_utf8);
      expect(domainDigest('checkpoint-id', c.id_input)).toBe(c.digest_checkpoint_id_domain);
      const eb = new EvidenceBound(c.id_input.policy);
      for (const dep of c.id_input.depends_on) {
        eb.createCheckpoint({ checkpoint_id: dep, agent: 'x', evidence: [E], output: null });
      }
      const cp = eb.createCheckpoint({
        agent: c.id_input.agent,
        evidence: c.id_input.evidence,
        output: c.id_input.output,
        depends_on: c.id_input.depends_on,
        operation_id: c.id_input.operation_id,
      });
      expect(cp.checkpoint_id).toBe(c.expected_checkpoint_id);
    });
  }
});

describe('verification-scenarios.json facade_refusals (4)', () => {
  it('has 4 cases', () => expect(v.facade_refusals).toHaveLength(4));
  const run: Record<string, () => unknown> = {
    'duplicate-checkpoint-id': () => {
      const eb = new EvidenceBound({ policy_id: 'safety', version: '1' });
      eb.createCheckpoint({ checkpoint_id: 'fixed', agent: 'A', evidence: [E], output: 1 });
      eb.createCheckpoint({ checkpoint_id: 'fixed', agent: 'A', evidence: [E], output: 2 });
    },
    'duplicate-evidence-ids': () => new EvidenceBound({ policy_id: 'safety', version: '1' }).createCheckpoint({ agent: 'A', evidence: [E, E], output: 1 }),
    'unknown-dependencies': () =>
      new EvidenceBound({ policy_id: 'safety', version: '1' }).createCheckpoint({
        agent: 'A',
        evidence: [E],
        output: 1,
        depends_on: ['zz', 'aa', 'zz'],
      }),
    'dependency-listed-twice': () => {
      const eb = new EvidenceBound({ policy_id: 'safety', version: '1' });
      eb.createCheckpoint({ checkpoint_id: 'A', agent: 'A', evidence: [E], output: 1 });
      eb.createCheckpoint({ checkpoint_id: 'B', agent: 'B', evidence: [E], output: 1, depends_on: ['A', 'A'] });
      return eb.graph();
    },
  };
  for (const c of v.facade_refusals) {
    it(c.id, () => {
      const f = run[c.id] as () => unknown;
      expect(f).toThrow(c.expected_error.type === 'GraphError' ? GraphError : CheckpointError);
      expect(f).toThrow(c.expected_error.message);
    });
  }
});

describe('verification-scenarios.json replay_guard (7 steps)', () => {
  it('runs every step on one guard', () => {
    expect(v.replay_guard.steps).toHaveLength(7);
    const guard = new ReplayGuard();
    for (const step of v.replay_guard.steps) {
      expect(domainDigest('operation', step.payload)).toBe(step.operation_digest);
      if (step.expected.startsWith('ReplayConflict')) {
        expect(() => guard.apply(step.operation_id, step.payload)).toThrow(ReplayConflict);
        expect(() => guard.apply(step.operation_id, step.payload)).toThrow(step.expected.slice('ReplayConflict: '.length));
      } else expect(guard.apply(step.operation_id, step.payload)).toBe(step.expected);
    }
  });
});

describe('facade invalidation (BENCHMARK.md workload, N = 100)', () => {
  it('recompute 25, reuse 75, events in order', () => {
    const events: EvidenceBoundEvent[] = [];
    const eb = new EvidenceBound({ policy_id: 'benchmark', version: '1' }, { onEvent: (e) => events.push(e) });
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const id = `n${String(i).padStart(3, '0')}`;
      eb.createCheckpoint({
        checkpoint_id: id,
        agent: 'bench',
        evidence: [{ evidence_id: 'e', payload: { v: 1 }, provenance: { source: 'synthetic', locator: 'urn:bench' } }],
        output: { node: i },
        depends_on: i ? [ids[i - 1] as string] : [],
      });
      ids.push(id);
      expect(eb.verify(id).action).toBe('ALLOW');
    }
    events.length = 0;
    const plan = eb.invalidate('n075', 'worker_failed', ['n099']);
    expect(plan.recompute).toEqual(ids.slice(75));
    expect(plan.reusable).toEqual(ids.slice(0, 75));
    expect(plan.requires_verification).toEqual([]);
    expect(plan.blocked).toEqual(['n099']);
    expect(events.map((e) => e.type)).toEqual(['invalidation_started', 'blast_radius_computed', 'recovery_planned']);
    expect(Object.isFrozen(eb.checkpoint('n000'))).toBe(true);
  });
});
