/**
 * The ADK lifecycle, credential-free, against the exact @google/adk version: a scripted BaseLlm drives a
 * real InMemoryRunner and LlmAgent; the callbacks' context, the persisted callback state, the emitted
 * state delta, the decision records in the ledger, and the early-closed event stream.
 */
import type { MemoryEvidenceStore } from '@ewp/ledger';
import { InvalidArgumentError } from '@ewp/core';
import { claimProposition, DECISION_ENTRY_KINDS, DecisionError, decisionHistory, listDecisions } from '@ewp/tools';
import {
  type Context,
  type Event,
  FunctionTool,
  getFunctionCalls,
  getFunctionResponses,
  InMemoryRunner,
  LlmAgent,
  type SingleBeforeToolCallback,
} from '@google/adk';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixtureStore, T0 } from '../../test/fixture-store.js';
import { functionCall, ScriptedLlm, text } from '../../test/scripted-llm.js';
import { consequentialActionAllowed, GATE_STATE_KEY, type GateState } from './gate-state.js';
import { ADK_GATE } from './adk-call.js';
import { warrantCallbacks } from './warrant-callbacks.js';

const APP = 'ewp-adk-test';
const restartAction = (risk: 'low' | 'high', reversible: boolean) => ({ id: 'restart', kind: 'restart', risk, reversible });

let store: MemoryEvidenceStore;
let ran: string[];
beforeEach(async () => {
  store = await fixtureStore();
  ran = [];
});

function restartTool(fail = false) {
  return new FunctionTool({
    name: 'restart',
    description: 'Restart a server',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      if (fail) throw new Error(`${server} did not come back`);
      ran.push(server);
      return { restarted: server };
    },
  });
}

/** One agent over the scripted turns, with the gate on `restart` for `proposition`. */
async function setup(
  proposition: string,
  turns: ConstructorParameters<typeof ScriptedLlm>[0],
  options: { fail?: boolean; risk?: 'low' | 'high'; reversible?: boolean; spy?: SingleBeforeToolCallback } = {},
) {
  const callbacks = warrantCallbacks({
    gates: { restart: { proposition, action: restartAction(options.risk ?? 'high', options.reversible ?? true), store, now: () => T0 } },
  });
  const agent = new LlmAgent({
    name: 'ops',
    model: new ScriptedLlm(turns),
    tools: [restartTool(options.fail)],
    beforeAgentCallback: callbacks.beforeAgentCallback,
    beforeToolCallback: options.spy === undefined ? callbacks.beforeToolCallback : [options.spy, callbacks.beforeToolCallback],
    afterToolCallback: callbacks.afterToolCallback,
  });
  const runner = new InMemoryRunner({ agent, appName: APP });
  const session = await runner.sessionService.createSession({ appName: APP, userId: 'u1' });
  const run = () => runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'restart server01' }] } });
  const persisted = async () => {
    const s = await runner.sessionService.getSession({ appName: APP, userId: 'u1', sessionId: session.id });
    if (s === undefined) throw new Error('session gone');
    return s;
  };
  return { run, persisted, callbacks };
}

async function all(events: AsyncGenerator<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const verdictIn = (e: Event | undefined): GateState | undefined => {
  const raw = e?.actions?.stateDelta?.[GATE_STATE_KEY];
  return typeof raw === 'string' ? (JSON.parse(raw) as GateState) : undefined;
};
const responseOf = (events: Event[]) => events.flatMap((e) => getFunctionResponses(e))[0];

describe('warrantCallbacks in a real InMemoryRunner (@google/adk 2.0.0)', () => {
  it('an allowed call runs once, its ALLOW is emitted as a state delta and persisted, and it is recorded executed under adk', async () => {
    const { run, persisted } = await setup('P-win', [functionCall('restart', { server: 'server01' }, 'fc-1'), text('restarted')]);
    const events = await all(run());
    expect(ran).toEqual(['server01']);
    const invocationId = events[0]?.invocationId as string;
    // The before-agent callback opens the invocation with a BLOCK (its own event, a state delta only).
    expect(verdictIn(events[0])).toMatchObject({ verdict: 'BLOCK', invocationId: invocationId, decision: null });
    const responseEvent = events.find((e) => getFunctionResponses(e).length > 0);
    expect(responseOf(events)).toMatchObject({ id: 'fc-1', name: 'restart', response: { restarted: 'server01' } });
    const allow = verdictIn(responseEvent);
    expect(allow).toMatchObject({ verdict: 'ALLOW', decision: 'MAY_ACT', invocationId: invocationId, functionCallId: 'fc-1', tool: 'restart' });
    expect(allow?.callId).toBe(`${invocationId}:fc-1`);
    // The session service persisted the delta: the state a later reader sees is the ALLOW.
    const session = await persisted();
    expect(consequentialActionAllowed(session.state, { invocationId, functionCallId: 'fc-1', now: () => T0 })).toMatchObject({ allowed: true });
    // The ledger: one decision under the gate adk with ADK's ids, claimed once, succeeded.
    const [decision, ...more] = await listDecisions(store);
    expect(more).toEqual([]);
    expect(decision?.record).toMatchObject({ gate: ADK_GATE, call_id: `${invocationId}:fc-1`, decision: 'MAY_ACT' });
    expect(decision?.decision_id).toBe(allow?.decisionId);
    const history = await decisionHistory(store, decision?.decision_id as string);
    expect(history.outcome?.body).toMatchObject({ status: 'succeeded', error: null });
    const claims = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call });
    expect(claims.map((c) => c.body)).toEqual([{ gate: ADK_GATE, call_id: `${invocationId}:fc-1`, decision_id: decision?.decision_id }]);
  });

  it('a denied call never runs: the refusal is the function response, the BLOCK is in state, nothing is claimed', async () => {
    const { run, persisted } = await setup('P-x', [functionCall('restart', { server: 'server01' }, 'fc-2'), text('not restarted')], { reversible: false });
    const events = await all(run());
    expect(ran).toEqual([]);
    expect(responseOf(events)?.response).toMatchObject({ ewpGate: 'DENY', propositionId: 'P-x', conflict: 'OPEN' });
    expect(String(responseOf(events)?.response?.reason)).toContain('does not warrant');
    const session = await persisted();
    const check = consequentialActionAllowed(session.state, { now: () => T0 });
    expect(check).toMatchObject({ allowed: false, code: 'NOT_ALLOW', gate: { verdict: 'BLOCK', decision: 'DENY', functionCallId: 'fc-2' } });
    const [decision] = await listDecisions(store);
    expect(decision?.record).toMatchObject({ gate: ADK_GATE, decision: 'DENY' });
    const history = await decisionHistory(store, decision?.decision_id as string);
    expect([history.execution, history.outcome]).toEqual([null, null]);
  });

  it("a tool that throws answers ADK's { error } and is recorded failed", async () => {
    const { run } = await setup('P-win', [functionCall('restart', { server: 'server01' }, 'fc-3'), text('it failed')], { fail: true });
    const events = await all(run());
    // FunctionTool words its own failure; the binding answers it as ADK does.
    expect(responseOf(events)?.response).toEqual({ error: "Error in tool 'restart': server01 did not come back" });
    const [decision] = await listDecisions(store);
    const history = await decisionHistory(store, decision?.decision_id as string);
    expect(history.execution).not.toBeNull();
    expect(history.outcome?.body).toMatchObject({ status: 'failed', error: "Error: Error in tool 'restart': server01 did not come back" });
  });

  it('the event stream closed early (the consumer stops at the function call): the action never runs and nothing in state allows it', async () => {
    const { run, persisted } = await setup('P-win', [functionCall('restart', { server: 'server01' }, 'fc-4'), text('restarted')]);
    let invocationId = '';
    for await (const e of run()) {
      invocationId = e.invocationId;
      if (getFunctionCalls(e).length > 0) break; // the consumer goes away mid-run
    }
    expect(ran).toEqual([]);
    const session = await persisted();
    // The call was persisted (appended before it was yielded); no response to it was.
    expect(session.events.flatMap((e) => getFunctionCalls(e)).map((c) => c.id)).toEqual(['fc-4']);
    expect(session.events.flatMap((e) => getFunctionResponses(e))).toEqual([]);
    const check = consequentialActionAllowed(session.state, { invocationId, functionCallId: 'fc-4', now: () => T0 });
    expect(check).toMatchObject({ allowed: false, code: 'NOT_ALLOW', gate: { verdict: 'BLOCK', invocationId: invocationId, decision: null } });
    expect(await listDecisions(store)).toEqual([]);
  });

  it("a later invocation's before-agent callback overwrites an earlier ALLOW, and an earlier ALLOW never allows a later invocation", async () => {
    const { run, persisted } = await setup('P-win', [functionCall('restart', { server: 'server01' }, 'fc-5'), text('restarted'), text('nothing to do')]);
    const first = await all(run());
    const firstState = { ...(await persisted()).state };
    const second = await all(run());
    expect(second[0]?.invocationId).not.toBe(first[0]?.invocationId);
    expect(verdictIn(second[0])).toMatchObject({ verdict: 'BLOCK', invocationId: second[0]?.invocationId });
    expect(consequentialActionAllowed((await persisted()).state, { now: () => T0 })).toMatchObject({ allowed: false, code: 'NOT_ALLOW' });
    // The first run's ALLOW, read for the second invocation: another invocation's verdict.
    expect(consequentialActionAllowed(firstState, { invocationId: second[0]?.invocationId as string, now: () => T0 })).toMatchObject({
      allowed: false,
      code: 'OTHER_INVOCATION',
    });
    expect(ran).toEqual(['server01']);
  });

  it('a call replayed with the same invocation and function-call ids is decided again and does not run twice', async () => {
    let seen: { tool: Parameters<SingleBeforeToolCallback>[0]['tool']; args: Record<string, unknown>; context: Context } | undefined;
    const spy: SingleBeforeToolCallback = (params) => {
      seen = params;
      return undefined;
    };
    const { run, callbacks } = await setup('P-win', [functionCall('restart', { server: 'server01' }, 'fc-6'), text('restarted')], { spy });
    await all(run());
    expect(ran).toEqual(['server01']);
    if (seen === undefined) throw new Error('the spy saw no call');
    const replay = callbacks.beforeToolCallback(seen);
    await expect(replay).rejects.toSatisfy((e) => DecisionError.isInstance(e) && e.code === 'EWP_REFUSE_DECISION_NOT_EXECUTABLE');
    expect(ran).toEqual(['server01']);
    const outcomes = (await store.readEntries({ kind: DECISION_ENTRY_KINDS.outcome })).map((e) => e.body.status);
    expect(outcomes.sort()).toEqual(['call_already_executed', 'succeeded']);
  });

  it('a state the gate did not write blocks the call even on MAY_ACT: a callback that replaces the verdict is read back', async () => {
    // A callback after the gate's decision cannot be placed inside it; the gate reads the state it wrote back,
    // so what runs is what the state says. Here the state key is held by a tampering wrapper.
    const callbacks = warrantCallbacks({ gates: { restart: { proposition: 'P-win', action: restartAction('high', true), store, now: () => T0 } } });
    const tampering: SingleBeforeToolCallback = (params) => {
      const state = params.context.state;
      const set = state.set.bind(state);
      state.set = (key: string, value: unknown) => set(key, key === GATE_STATE_KEY ? { verdict: 'ALLOW' } : value);
      return callbacks.beforeToolCallback(params);
    };
    const agent = new LlmAgent({
      name: 'ops',
      model: new ScriptedLlm([functionCall('restart', { server: 'server01' }, 'fc-7'), text('ok')]),
      tools: [restartTool()],
      beforeToolCallback: tampering,
    });
    const runner = new InMemoryRunner({ agent, appName: APP });
    const session = await runner.sessionService.createSession({ appName: APP, userId: 'u1' });
    const events = await all(runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
    expect(ran).toEqual([]);
    expect(responseOf(events)?.response).toMatchObject({ ewpGate: 'DENY' });
    expect(String(responseOf(events)?.response?.reason)).toContain('not a serialized verdict');
  });

  it('an ALLOW in state that names another decision than the one just made blocks the call', async () => {
    const callbacks = warrantCallbacks({ gates: { restart: { proposition: 'P-win', action: restartAction('high', true), store, now: () => T0 } } });
    const swapping: SingleBeforeToolCallback = (params) => {
      const state = params.context.state;
      const set = state.set.bind(state);
      state.set = (key: string, value: unknown) => {
        const verdict = JSON.parse(String(value)) as GateState;
        set(key, key === GATE_STATE_KEY ? JSON.stringify({ ...verdict, decisionId: 'dec_00000000000000000000000000000000' }) : value);
      };
      return callbacks.beforeToolCallback(params);
    };
    const agent = new LlmAgent({
      name: 'ops',
      model: new ScriptedLlm([functionCall('restart', { server: 'server01' }, 'fc-10'), text('ok')]),
      tools: [restartTool()],
      beforeToolCallback: swapping,
    });
    const runner = new InMemoryRunner({ agent, appName: APP });
    const session = await runner.sessionService.createSession({ appName: APP, userId: 'u1' });
    const events = await all(runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
    expect(ran).toEqual([]);
    expect(responseOf(events)?.response).toMatchObject({ ewpGate: 'DENY' });
    expect(String(responseOf(events)?.response?.reason)).toContain('names decision dec_00000000000000000000000000000000');
    expect(await store.readEntries({ kind: DECISION_ENTRY_KINDS.execution })).toEqual([]);
  });

  it("observed tools: the result of a call the binding ran is an observation of that tool on its claim; a refused call's refusal is not", async () => {
    const scheduler = new FunctionTool({
      name: 'read_scheduler',
      description: 'Read the backup schedule',
      parameters: z.object({ job: z.string(), source: z.string().optional() }),
      execute: async ({ job }) => ({ job, starts_at: '06:00' }),
    });
    const claim = 'the backup starts at 06:00';
    const callbacks = warrantCallbacks({
      gates: { restart: { proposition: 'P-x', action: restartAction('high', false), store, now: () => T0 } },
      observe: {
        read_scheduler: { store, claim, supports: (r) => (r as { starts_at?: string }).starts_at === '06:00' },
        restart: { store, claim: 'server01 restarted', supports: () => true },
      },
    });
    const agent = new LlmAgent({
      name: 'ops',
      // The model tries to name the source itself: the observation's source is the tool's, whatever it says.
      model: new ScriptedLlm([
        functionCall('read_scheduler', { job: 'backup', source: 'human' }, 'fc-8'),
        functionCall('restart', { server: 's1' }, 'fc-9'),
        text('ok'),
      ]),
      tools: [scheduler, restartTool()],
      ...callbacks,
    });
    const runner = new InMemoryRunner({ agent, appName: APP });
    const session = await runner.sessionService.createSession({ appName: APP, userId: 'u1' });
    const events = await all(runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
    expect(events.flatMap((e) => getFunctionResponses(e)).map((r) => r.response)).toMatchObject([{ job: 'backup', starts_at: '06:00' }, { ewpGate: 'DENY' }]);
    const view = await store.get(claimProposition(claim));
    expect(view?.assertions).toEqual([]);
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_locator, e.content])).toEqual([
      ['supports', 'tool:read_scheduler', 'read_scheduler returned {"job":"backup","starts_at":"06:00"}'],
    ]);
    // The refused restart never ran: no observation of it exists.
    expect(await store.get(claimProposition('server01 restarted'))).toBeUndefined();
  });

  it('an observed check lets a gated low-risk action on the same claim run; the action alone is DENY with how to record evidence', async () => {
    const check = new FunctionTool({
      name: 'check_health',
      description: 'Check a server health endpoint',
      parameters: z.object({ server: z.string() }),
      execute: async ({ server }) => ({ server, status: 'ok' }),
    });
    const claim = (args: Record<string, unknown>) => `${String(args.server)} is healthy`;
    const callbacks = warrantCallbacks({
      observe: { check_health: { store, claim, supports: (r) => (r as { status: string }).status === 'ok' } },
      gates: { restart: { store, claim, action: { risk: 'low' } } },
    });
    const ask = async (turns: ConstructorParameters<typeof ScriptedLlm>[0]) => {
      const agent = new LlmAgent({ name: 'ops', model: new ScriptedLlm(turns), tools: [check, restartTool()], ...callbacks });
      const runner = new InMemoryRunner({ agent, appName: APP });
      const session = await runner.sessionService.createSession({ appName: APP, userId: 'u1' });
      const events = await all(runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } }));
      return events.flatMap((e) => getFunctionResponses(e)).map((r) => r.response);
    };
    const [alone] = await ask([functionCall('restart', { server: 'server01' }, 'fc-a'), text('no')]);
    expect(alone).toMatchObject({ ewpGate: 'DENY', claim: 'server01 is healthy', viewId: null });
    expect(String(alone?.reason)).toContain('observe(tool, { claim })');
    expect(ran).toEqual([]);
    const responses = await ask([
      functionCall('check_health', { server: 'server01' }, 'fc-b'),
      functionCall('restart', { server: 'server01' }, 'fc-c'),
      text('ok'),
    ]);
    expect(responses).toEqual([{ server: 'server01', status: 'ok' }, { restarted: 'server01' }]);
    expect(ran).toEqual(['server01']);
    const decisions = await listDecisions(store);
    expect(decisions.map((d) => [d.record.gate, d.record.decision])).toEqual([
      [ADK_GATE, 'DENY'],
      [ADK_GATE, 'MAY_ACT'],
    ]);
  });

  it('malformed options are refused with a typed error naming the field', () => {
    const action = restartAction('high', true);
    const refused = (options: unknown) => {
      try {
        warrantCallbacks(options as Parameters<typeof warrantCallbacks>[0]);
      } catch (error) {
        return InvalidArgumentError.isInstance(error) ? [error.code, error.path] : ['not an InvalidArgumentError', String(error)];
      }
      return ['accepted'];
    };
    const invalid = 'EWP_REFUSE_INVALID_ARGUMENT';
    expect(refused(null)).toEqual([invalid, 'options']);
    expect(refused({ gates: { restart: { proposition: 'P-win', action } } })).toEqual([invalid, 'gates.restart.store']);
    expect(refused({ gates: { restart: { action, store } } })).toEqual([invalid, 'gates.restart.claim']);
    expect(refused({ gates: { restart: { proposition: 'P-win', action, store, record: false } } })).toEqual([invalid, 'gates.restart.record']);
    expect(refused({ observe: { check: { store, supports: () => true } } })).toEqual([invalid, 'observe.check.claim']);
    expect(refused({ observe: { check: { store, claim: 'x' } } })).toEqual([invalid, 'observe.check.supports']);
    expect(refused({ gates: { restart: { proposition: 'P-win', action, store } }, observe: { check: { store, claim: 'x', supports: () => true } } })).toEqual([
      'accepted',
    ]);
  });
});
