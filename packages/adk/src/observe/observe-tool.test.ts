/**
 * `observe()` and `gate()` on ADK tools, through a real InMemoryRunner with a scripted model: the model
 * calls an observed check tool, and a gated action on the same claim is decided on what the tool saw;
 * the action alone is refused with a reason that says how to record evidence.
 */
import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, decisionHistory, listDecisions } from '@ewp/tools';
import { type Event, FunctionTool, getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { functionCall, ScriptedLlm, text } from '../../test/scripted-llm.js';
import { gate } from '../gate/gate-tool.js';
import { observe } from './observe-tool.js';

type Health = { server: string; status: 'ok' | 'down' | 'timeout' };

let store: MemoryEvidenceStore;
let ran: string[];
let health: Health['status'];
beforeEach(() => {
  store = new MemoryEvidenceStore();
  ran = [];
  health = 'ok';
});

const claim = (args: Record<string, unknown>) => `${String(args.server)} is healthy`;

function tools(fail = false) {
  const check = new FunctionTool({
    name: 'check_health',
    description: 'Check a server health endpoint',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }): Promise<Health> => ({ server, status: health }),
  });
  const restart = new FunctionTool({
    name: 'restart',
    description: 'Restart a server',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      if (fail) throw new Error(`${server} did not come back`);
      ran.push(server);
      return { restarted: server };
    },
  });
  return [
    observe<Health>(check, { store, claim, supports: (r) => (r.status === 'timeout' ? undefined : r.status === 'ok') }),
    gate(restart, { store, claim, action: { risk: 'low' } }),
  ];
}

/** One run of the scripted calls; the function responses and the invocation id. */
async function run(calls: Array<{ name: string; id: string }>, fail = false) {
  const model = new ScriptedLlm([...calls.map((c) => functionCall(c.name, { server: 'server01' }, c.id)), text('done')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model, tools: tools(fail) }), appName: 'ops' });
  const session = await runner.sessionService.createSession({ appName: 'ops', userId: 'u' });
  const events: Event[] = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'restart server01 if healthy' }] } }))
    events.push(e);
  return {
    responses: events.flatMap((e) => getFunctionResponses(e)).map((r) => JSON.parse(JSON.stringify(r.response)) as Record<string, unknown>),
    invocationId: events[0]?.invocationId as string,
    model,
  };
}

describe('observe() and gate() on ADK tools in an InMemoryRunner', () => {
  it('an observed check lands on the claim, and the gated low-risk action on it runs (MAY_ACT under adk with the invocation and call ids)', async () => {
    const { responses, invocationId, model } = await run([
      { name: 'check_health', id: 'fc-1' },
      { name: 'restart', id: 'fc-2' },
    ]);
    expect(responses).toEqual([{ server: 'server01', status: 'ok' }, { restarted: 'server01' }]);
    expect(ran).toEqual(['server01']);
    // The model was offered the inner tools' declarations.
    const declared = model.requests[0]?.config?.tools?.flatMap((t) => ('functionDeclarations' in t ? (t.functionDeclarations ?? []) : [])).map((f) => f.name);
    expect(declared).toEqual(['check_health', 'restart']);
    const view = await store.get(claimProposition('server01 is healthy'));
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_locator])).toEqual([['supports', 'tool:check_health']]);
    const [decision, ...more] = await listDecisions(store);
    expect(more).toEqual([]);
    expect(decision?.record).toMatchObject({ gate: 'adk', call_id: `${invocationId}:fc-2`, decision: 'MAY_ACT' });
    expect(decision?.record.consulted.map((c) => c.proposition_id)).toEqual([claimProposition('server01 is healthy')]);
    expect((await decisionHistory(store, decision?.decision_id as string)).outcome?.body).toMatchObject({ status: 'succeeded' });
  });

  it('the action alone is DENY, and the refusal says how to record evidence', async () => {
    const { responses } = await run([{ name: 'restart', id: 'fc-1' }]);
    expect(ran).toEqual([]);
    expect(responses[0]).toMatchObject({ ewpGate: 'DENY', claim: 'server01 is healthy', propositionId: claimProposition('server01 is healthy'), viewId: null });
    expect(String(responses[0]?.reason)).toContain('observe(tool, { claim })');
  });

  it('supports answering undefined records nothing, and the action stays DENY', async () => {
    health = 'timeout';
    const { responses } = await run([
      { name: 'check_health', id: 'fc-1' },
      { name: 'restart', id: 'fc-2' },
    ]);
    expect(await store.get(claimProposition('server01 is healthy'))).toBeUndefined();
    expect(responses[1]).toMatchObject({ ewpGate: 'DENY' });
  });

  it('a gated tool that throws is recorded failed', async () => {
    await run(
      [
        { name: 'check_health', id: 'fc-1' },
        { name: 'restart', id: 'fc-2' },
      ],
      true,
    );
    const [decision] = await listDecisions(store);
    expect((await decisionHistory(store, decision?.decision_id as string)).outcome?.body).toMatchObject({ status: 'failed' });
  });

  it('checks its options once, when it wraps, naming the field', () => {
    const [check] = tools();
    const refused = (wrap: () => unknown) => {
      try {
        wrap();
      } catch (e) {
        return InvalidArgumentError.isInstance(e) ? (e as InvalidArgumentError).path : String(e);
      }
      return 'accepted';
    };
    expect(refused(() => observe(check!, { store, claim: 'x' } as never))).toBe('options.supports');
    expect(refused(() => observe(check!, { claim: 'x', supports: () => true } as never))).toBe('options.store');
    expect(refused(() => gate(check!, { store } as never))).toBe('options.claim');
    expect(refused(() => gate(check!, { store, claim: 'x', action: { risk: 'huge' } } as never))).toBe('options.action.risk');
    expect(refused(() => gate(check!, { store, claim: 'x' }))).toBe('accepted');
  });
});
