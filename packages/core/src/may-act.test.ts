import { describe, expect, it } from 'vitest';
import { InvalidAction } from './errors.js';
import { mayAct } from './may-act.js';
import type { Warrant } from './types.js';

const accepted: Warrant = { acceptance: 'ACCEPTED', conflict: 'NONE', verification: 'EXTERNAL', currency: 'CURRENT', sufficiency: 'SUFFICIENT', strength: 0.85, rationale_codes: [] };

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
