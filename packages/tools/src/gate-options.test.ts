import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { claimProposition } from './claim.js';
import { checkGateOptions, type GateOptions, resolveGate } from './gate-options.js';

const store = new MemoryEvidenceStore();

function refusal(options: unknown, gate = 'ai-sdk'): InvalidArgumentError {
  try {
    checkGateOptions(options as GateOptions, gate);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect((e as InvalidArgumentError).code).toBe('EWP_REFUSE_INVALID_ARGUMENT');
    return e as InvalidArgumentError;
  }
  throw new Error('expected a refusal');
}

describe('checkGateOptions: the one check', () => {
  it('names the field and the fix', () => {
    expect(refusal({ claim: 'x' }).path).toBe('options.store');
    expect(refusal({ store: {}, claim: 'x' }).path).toBe('options.store');
    expect(refusal({ store }).message).toMatch(/claim .*in words/);
    expect(refusal({ store, claim: 'x', proposition: 'p' }).message).toMatch(/not both/);
    expect(refusal({ store, claim: '' }).path).toBe('options.claim');
    expect(refusal({ store, claim: 'x', action: { risk: 'extreme' } }).path).toBe('options.action.risk');
    expect(refusal({ store, claim: 'x', action: { reversible: 'no' } }).path).toBe('options.action.reversible');
    expect(refusal({ store, claim: 'x', riskPolicy: { highRequiresAccepted: 1 } }).path).toBe('options.riskPolicy.highRequiresAccepted');
    expect(refusal({ store, claim: 'x', callId: 'c' }).path).toBe('options.callId');
    expect(refusal({ store, claim: 'x' }, '').path).toBe('gate');
    expect(refusal(null).path).toBe('options');
  });

  it('refuses an action field it does not know, naming the option a protocol name stands for', () => {
    // `action_id` is the wire name: ignored, it would leave the id to default to the tool's name.
    const snake = refusal({ store, claim: 'x', action: { action_id: 'patch', kind: 'install' } });
    expect(snake.path).toBe('options.action.action_id');
    expect(snake.message).toMatch(/`id`/);
    expect(refusal({ store, claim: 'x', action: { id: 'a', severity: 'high' } }).path).toBe('options.action.severity');
    expect(() => resolveGate({ store, claim: 'x', action: () => ({ actionId: 'a' }) as never }, {}, 'tool')).toThrow(InvalidArgumentError);
  });

  it('refuses an action with neither an id nor a tool to name it after', () => {
    let error: unknown;
    try {
      resolveGate({ store, claim: 'x', action: { risk: 'high' } }, {}, undefined as never);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).path).toBe('action.id');
    expect(resolveGate({ store, claim: 'x', action: { id: 'patch', kind: 'install' } }, {}, undefined as never).action).toMatchObject({
      action_id: 'patch',
      kind: 'install',
    });
  });

  it('accepts what it documents', () => {
    expect(() => checkGateOptions({ store, claim: (i: { s: string }) => `${i.s} is up`, action: () => ({ risk: 'high' }) }, 'langchain')).not.toThrow();
    expect(() => checkGateOptions({ store, proposition: 'P1', riskPolicy: { highRequiresAccepted: false } }, 'mastra')).not.toThrow();
  });
});

describe('resolveGate: camelCase options to the wire, in one place', () => {
  it('defaults the action to the tool, converts the policy, names the claim proposition', () => {
    const r = resolveGate(
      { store, claim: (i: { s: string }) => `${i.s} is up`, riskPolicy: { highRequiresNoOpenConflict: false } },
      { s: 'db1' },
      'restart_db',
    );
    expect(r).toEqual({
      propositionId: claimProposition('db1 is up'),
      claim: 'db1 is up',
      action: { action_id: 'restart_db', kind: 'restart_db', risk: 'low', reversible: true },
      riskPolicy: { high_requires_no_open_conflict: false },
    });
    const byId = resolveGate({ store, proposition: 'P1', action: { id: 'a1', kind: 'deploy', risk: 'high', reversible: false } }, {}, 't');
    expect(byId.propositionId).toBe('P1');
    expect(byId.action).toEqual({ action_id: 'a1', kind: 'deploy', risk: 'high', reversible: false });
  });

  it('refuses a function option that returns nothing usable', () => {
    expect(() => resolveGate({ store, claim: () => '' }, {}, 't')).toThrow(InvalidArgumentError);
    expect(() => resolveGate({ store, claim: 'x', action: () => ({ risk: 'x' as never }) }, {}, 't')).toThrow(/options\.action\.risk|must be one of/);
  });
});
