/** The fail-closed check: only an explicit, serialized, current ALLOW of the expected invocation and call passes. */
import { State } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { consequentialActionAllowed, GATE_STATE_KEY, type GateState, serializeGateState } from './gate-state.js';

const AT = '2026-09-21T21:00:00.000Z';
const now = () => new Date(AT);
const allow: GateState = {
  v: 1,
  verdict: 'ALLOW',
  invocationId: 'e-1',
  functionCallId: 'fc-1',
  tool: 'restart',
  callId: 'e-1:fc-1',
  decision: 'MAY_ACT',
  decisionId: 'dec_1',
  propositionId: 'P-win',
  actionId: 'restart',
  evaluatedAt: AT,
  reason: 'permitted',
};
const stateWith = (value: unknown) => ({ [GATE_STATE_KEY]: value });
const expectOf = { invocationId: 'e-1', functionCallId: 'fc-1', tool: 'restart', now };

describe('consequentialActionAllowed', () => {
  it('allows a serialized ALLOW of the expected invocation, call and tool, from a plain record or an ADK State', () => {
    expect(consequentialActionAllowed(stateWith(serializeGateState(allow)), expectOf)).toEqual({ allowed: true, gate: allow });
    const state = new State({}, {});
    state.set(GATE_STATE_KEY, serializeGateState(allow));
    expect(consequentialActionAllowed(state, expectOf)).toMatchObject({ allowed: true });
  });

  it.each([
    ['no state at all', undefined, 'MISSING'],
    ['no verdict in state', {}, 'MISSING'],
    ['a verdict that is not serialized', stateWith(allow), 'MALFORMED'],
    ['a list', stateWith([serializeGateState(allow)]), 'MALFORMED'],
    ['text that is not JSON', stateWith('ALLOW'), 'MALFORMED'],
    ['another version', stateWith(JSON.stringify({ ...allow, v: 2 })), 'MALFORMED'],
    ['an unknown field', stateWith(JSON.stringify({ ...allow, extra: true })), 'MALFORMED'],
    ['a lower-case verdict', stateWith(JSON.stringify({ ...allow, verdict: 'allow' })), 'MALFORMED'],
    ['an ALLOW without its recorded decision', stateWith(JSON.stringify({ ...allow, decisionId: null })), 'MALFORMED'],
    ['an ALLOW on a DENY', stateWith(JSON.stringify({ ...allow, decision: 'DENY' })), 'MALFORMED'],
    ['a time that is not an instant', stateWith(JSON.stringify({ ...allow, evaluatedAt: 'yesterday' })), 'MALFORMED'],
    ['a BLOCK', stateWith(serializeGateState({ ...allow, verdict: 'BLOCK', decision: 'DENY', reason: 'open conflict' })), 'NOT_ALLOW'],
    ['another invocation', stateWith(serializeGateState({ ...allow, invocationId: 'e-0' })), 'OTHER_INVOCATION'],
    ['another call', stateWith(serializeGateState({ ...allow, functionCallId: 'fc-0' })), 'OTHER_CALL'],
    ['another tool', stateWith(serializeGateState({ ...allow, tool: 'deploy' })), 'OTHER_CALL'],
    ['an ALLOW older than 300 s', stateWith(serializeGateState({ ...allow, evaluatedAt: '2026-09-21T20:54:59.000Z' })), 'STALE'],
    ['an ALLOW from the future', stateWith(serializeGateState({ ...allow, evaluatedAt: '2026-09-21T21:05:01.000Z' })), 'STALE'],
  ] as const)('blocks %s', (_label, state, code) => {
    const check = consequentialActionAllowed(state as Record<string, unknown> | undefined, expectOf);
    expect(check).toMatchObject({ allowed: false, code });
    expect(check.allowed === false && check.reason.length > 0).toBe(true);
  });

  it('the age bound is the caller’s: an ALLOW 301 s old passes a 600 s bound', () => {
    const old = stateWith(serializeGateState({ ...allow, evaluatedAt: '2026-09-21T20:54:59.000Z' }));
    expect(consequentialActionAllowed(old, { ...expectOf, maxAgeSeconds: 600 })).toMatchObject({ allowed: true });
  });

  it('serializeGateState refuses a verdict it could not read back', () => {
    expect(() => serializeGateState({ ...allow, decisionId: null })).toThrow();
  });
});
