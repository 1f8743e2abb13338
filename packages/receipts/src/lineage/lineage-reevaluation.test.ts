import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { type EvidenceView, decodeView } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { GraphError } from '../errors.js';
import { actionAfterRecovery } from '../recovery/recovery-plan.js';
import { lineageFromViews, planReevaluation, planReevaluationFromStore } from './lineage-reevaluation.js';

const fixture = (name: string) =>
  decodeView(JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../conformance/pack/fixtures/${name}.json`, import.meta.url)), 'utf8')));

/** A view of `pid` derived from `from`, built from a real fixture so it decodes. */
function derived(pid: string, from: string[], extra: EvidenceView['lineage'] = []): EvidenceView {
  const base = fixture('07-lineage');
  return decodeView({
    ...base,
    proposition_id: pid,
    view_id: `v-${pid}`,
    assertions: base.assertions.map((a) => ({ ...a, proposition_id: pid })),
    evidence: base.evidence.map((e) => ({ ...e, proposition_id: pid })),
    lineage: [...from.map((to) => ({ from_id: pid, to_id: to, kind: 'derived_from' })), ...extra],
  });
}

describe('lineageFromViews', () => {
  it('reads derived_from edges of the pack fixtures (P-hvac derived from P-occ)', () => {
    const { lineage, ignored } = lineageFromViews([fixture('06-derived'), fixture('06-premises')]);
    expect(lineage).toEqual([
      { proposition_id: 'P-hvac', derived_from: ['P-occ'] },
      { proposition_id: 'P-occ', derived_from: [] },
    ]);
    // P-occ's view carries the same edge, but it is not from P-occ: reported, not a graph edge.
    expect(ignored).toEqual([{ proposition_id: 'P-occ', edge: { from_id: 'P-hvac', to_id: 'P-occ', kind: 'derived_from' }, why: 'from_other_record' }]);
  });
  it('resolves P:<suffix> variants and reports unknown targets and other kinds', () => {
    const views = [derived('A', []), derived('B', ['A:claim-1', 'Z'], [{ from_id: 'B', to_id: 'A', kind: 'parent_source' }])];
    const { lineage, ignored } = lineageFromViews(views);
    expect(lineage[1]).toEqual({ proposition_id: 'B', derived_from: ['A'] });
    expect(ignored.map((i) => i.why).sort()).toEqual(['not_derived_from', 'unknown_target']);
  });
});

describe('planReevaluation', () => {
  const lineage = [
    { proposition_id: 'root', derived_from: [] },
    { proposition_id: 'mid', derived_from: ['root'] },
    { proposition_id: 'leaf', derived_from: ['mid'] },
    { proposition_id: 'other', derived_from: [] },
    { proposition_id: 'uses-other', derived_from: ['other'] },
  ];
  const actions = [
    { action_id: 'deploy', uses: ['leaf'] },
    { action_id: 'email', uses: ['uses-other'] },
  ];
  it('re-evaluates exactly the downstream propositions and actions; the rest is unaffected', () => {
    const plan = planReevaluation({ lineage, actions, changed: ['mid'] });
    expect(plan.propositions).toEqual(['mid', 'leaf']);
    expect(plan.actions).toEqual(['deploy']);
    expect(plan.unaffected_propositions.sort()).toEqual(['other', 'root', 'uses-other']);
    expect(plan.unaffected_actions).toEqual(['email']);
    expect(plan.recovery.reasons['prop:leaf']).toBe('depends_on_invalidated:prop:mid');
    // No proof for root either, so it is a prerequisite too (reuse requires proof).
    expect(plan.recovery.requirementsFor('act:deploy')).toEqual(['prop:root', 'prop:mid', 'prop:leaf', 'act:deploy']);
    // Without verification proofs nothing is "reusable": every action waits.
    expect(plan.reusable).toEqual([]);
    expect(plan.recovery.blocked).toEqual(['act:deploy', 'act:email']);
  });
  it('with bound ALLOW results the unaffected nodes are proven reusable and only the affected action waits', () => {
    const allow = (id: string) => ({ checkpoint_id: id, action: 'ALLOW' }) as never;
    const verification = Object.fromEntries(['prop:root', 'prop:other', 'prop:uses-other', 'act:email'].map((id) => [id, allow(id)]));
    const plan = planReevaluation({ lineage, actions, changed: new Map([['mid', 'evidence_refuted']]), verification, isBound: () => true });
    expect([...plan.reusable].sort()).toEqual(['act:email', 'prop:other', 'prop:root', 'prop:uses-other']);
    expect(plan.recovery.requirementsFor('act:deploy')).toEqual(['prop:mid', 'prop:leaf', 'act:deploy']);
    expect(plan.recovery.blocked).toEqual(['act:deploy']);
    expect(plan.recovery.reasons['prop:mid']).toBe('evidence_refuted');
    expect(actionAfterRecovery('act:email', plan.recovery, {})).toBe('ALLOW');
    expect(actionAfterRecovery('act:deploy', plan.recovery, {})).toBe('BLOCK');
    const reverified = Object.fromEntries(['prop:mid', 'prop:leaf', 'act:deploy'].map((id) => [id, allow(id)]));
    expect(actionAfterRecovery('act:deploy', plan.recovery, reverified)).toBe('ALLOW');
  });
  it('cyclic lineage and unknown propositions are refused', () => {
    expect(() =>
      planReevaluation({
        lineage: [
          { proposition_id: 'a', derived_from: ['b'] },
          { proposition_id: 'b', derived_from: ['a'] },
        ],
        changed: ['a'],
      }),
    ).toThrow(GraphError);
    expect(() => planReevaluation({ lineage, changed: ['nope'] })).toThrow(/unknown checkpoint: prop:nope/);
  });
});

describe('planReevaluationFromStore', () => {
  it('reads the latest snapshots of a store and plans over their lineage', async () => {
    const views = new Map([
      ['P-occ', fixture('06-premises')],
      ['P-hvac', fixture('06-derived')],
      ['P-x', fixture('07-lineage')],
    ]);
    const store = {
      listPropositions: async () => [...views.keys()].map((proposition_id) => ({ proposition_id })),
      get: async (pid: string) => views.get(pid),
    };
    const plan = await planReevaluationFromStore(store, ['P-occ'], { actions: [{ action_id: 'hvac-on', uses: ['P-hvac'] }] });
    expect(plan.propositions).toEqual(['P-occ', 'P-hvac']);
    expect(plan.actions).toEqual(['hvac-on']);
    expect(plan.unaffected_propositions).toEqual(['P-x']);
    expect(plan.ignored).toHaveLength(1);
  });
});
