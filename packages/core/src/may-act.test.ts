import { describe, expect, it } from 'vitest';
import { InvalidAction } from './errors.js';
import { gateRuleFor, MAY_ACT_RULES, mayAct } from './may-act.js';
import type { Warrant } from '@ewp/spec';

const accepted: Warrant = {
  acceptance: 'ACCEPTED',
  conflict: 'NONE',
  verification: 'EXTERNAL',
  currency: 'CURRENT',
  sufficiency: 'SUFFICIENT',
  strength: 0.85,
  rationale_codes: [],
};

describe('mayAct', () => {
  it('defaults to a low-risk reversible action', () => {
    expect(mayAct(accepted, { action_id: 'a', kind: 'k' })).toBe('MAY_ACT');
    expect(mayAct({ ...accepted, acceptance: 'TENTATIVE', currency: 'STALE' }, { action_id: 'a', kind: 'k', reversible: false })).toBe('MAY_ACT');
  });
  it('denies on UNACCEPTED whatever the risk', () => {
    expect(mayAct({ ...accepted, acceptance: 'UNACCEPTED' }, { action_id: 'a', kind: 'k', risk: 'low' })).toBe('DENY');
  });
  it('lets an operator switch the high-risk flags off', () => {
    const w: Warrant = { ...accepted, acceptance: 'TENTATIVE', conflict: 'OPEN' };
    expect(mayAct(w, { action_id: 'a', kind: 'k', risk: 'high' })).toBe('DENY');
    expect(mayAct(w, { action_id: 'a', kind: 'k', risk: 'high' }, { high_requires_accepted: false, high_requires_no_open_conflict: false })).toBe('MAY_ACT');
  });
  it('refuses malformed actions with a typed error naming the field', () => {
    expect(() => mayAct(accepted, { action_id: 'a', kind: 'k', risk: 'critical' as 'low' })).toThrow(InvalidAction);
    expect(() => mayAct(accepted, { action_id: 'a', kind: 'k', reversible: 'no' as unknown as boolean })).toThrow(/reversible/);
    expect(() => mayAct(accepted, { action_id: 'a', kind: 'k' }, { high_requires_accepted: 1 as unknown as boolean })).toThrow(/high_requires_accepted/);
  });
});

describe('mayAct fails closed on a malformed warrant', () => {
  it.each([null, {}, { warrant: null }, { ...accepted, acceptance: 'MAYBE' }, { ...accepted, sufficiency: undefined }])('refuses %j', (w) => {
    expect(() => mayAct(w as Warrant, { action_id: 'a', kind: 'k', risk: 'high' })).toThrow(expect.objectContaining({ code: 'INVALID_WARRANT' }));
  });
});

describe('gateRuleFor', () => {
  it('names the rule that decided, and mayAct returns its decision', () => {
    const w: Warrant = { ...accepted, acceptance: 'TENTATIVE', conflict: 'OPEN' };
    expect(gateRuleFor(w, { action_id: 'a', kind: 'k', risk: 'high' }).id).toBe('high.requires_accepted');
    expect(gateRuleFor(w, { action_id: 'a', kind: 'k', risk: 'high' }, { high_requires_accepted: false }).id).toBe('high.open_conflict');
    expect(gateRuleFor(w, { action_id: 'a', kind: 'k', risk: 'low' }).id).toBe('doubt');
    expect(gateRuleFor(accepted, { action_id: 'a', kind: 'k', risk: 'medium', reversible: false }).id).toBe('warranted');
    const axes = {
      acceptance: ['UNACCEPTED', 'TENTATIVE', 'ACCEPTED'],
      conflict: ['NONE', 'OPEN', 'RESOLVED'],
      currency: ['CURRENT', 'STALE', 'SUPERSEDED'],
      sufficiency: ['SUFFICIENT', 'INSUFFICIENT', 'DEGRADED'],
    } as const;
    const seen = new Set<string>();
    for (const acceptance of axes.acceptance)
      for (const conflict of axes.conflict)
        for (const currency of axes.currency)
          for (const sufficiency of axes.sufficiency)
            for (const risk of ['low', 'medium', 'high'] as const)
              for (const reversible of [true, false])
                for (const high_requires_accepted of [true, false]) {
                  const cell: Warrant = { ...accepted, acceptance, conflict, currency, sufficiency };
                  const action = { action_id: 'a', kind: 'k', risk, reversible };
                  const rule = gateRuleFor(cell, action, { high_requires_accepted });
                  expect(mayAct(cell, action, { high_requires_accepted })).toBe(rule.decision);
                  seen.add(rule.id);
                }
    // Every row of the table decides some situation.
    expect([...seen].sort()).toEqual(MAY_ACT_RULES.map((r) => r.id).sort());
  });
});
