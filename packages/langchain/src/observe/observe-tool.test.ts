/**
 * `observe()` and `gate()` together in a real `createAgent` with langchain's FakeToolCallingModel: the
 * model calls an observed check tool, and a gated action on the same claim is decided on what the tool
 * saw; the action alone is refused with a reason that says how to record evidence.
 */
import { InvalidArgumentError } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, listDecisions, observeResult } from '@ewp/tools';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel, type ToolMessage } from 'langchain';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
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

const claim = ({ server }: { server: string }) => `${server} is healthy`;

function tools() {
  const check = tool(async ({ server }: { server: string }): Promise<Health> => ({ server, status: health }), {
    name: 'check_health',
    description: 'Check a server health endpoint',
    schema: z.object({ server: z.string() }),
  });
  const restart = tool(
    async ({ server }: { server: string }) => {
      ran.push(server);
      return `restarted ${server}`;
    },
    { name: 'restart', description: 'Restart a server', schema: z.object({ server: z.string() }) },
  );
  return {
    check: observe<{ server: string }, Health>(check, {
      store,
      claim,
      supports: (r) => (r.status === 'timeout' ? undefined : r.status === 'ok'),
    }),
    restart: gate<{ server: string }>(restart, { store, claim, action: { risk: 'low' } }),
  };
}

async function run(calls: Array<{ name: string; id: string }>): Promise<ToolMessage[]> {
  const { check, restart } = tools();
  const model = new FakeToolCallingModel({ toolCalls: [...calls.map((c) => [{ name: c.name, args: { server: 'server01' }, id: c.id }]), []] });
  const agent = createAgent({ model, tools: [check, restart], checkpointer: new MemorySaver() });
  const out = await agent.invoke({ messages: [{ role: 'user', content: 'restart server01 if it is healthy' }] }, { configurable: { thread_id: 't' } });
  return out.messages.filter((m): m is ToolMessage => m.getType() === 'tool');
}

describe('observe() and gate() in createAgent', () => {
  it('an observed check lands on the claim, and the gated low-risk action on it runs (MAY_ACT, recorded under langchain)', async () => {
    const messages = await run([
      { name: 'check_health', id: 'c1' },
      { name: 'restart', id: 'c2' },
    ]);
    // The check's result reaches the model unchanged.
    expect(JSON.parse(String(messages[0]?.content))).toEqual({ server: 'server01', status: 'ok' });
    expect(messages[1]?.content).toBe('restarted server01');
    expect(ran).toEqual(['server01']);
    // The observation's source is the tool, bound by the binding.
    const view = await store.get(claimProposition('server01 is healthy'));
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_locator])).toEqual([['supports', 'tool:check_health']]);
    const [decision, ...more] = await listDecisions(store);
    expect(more).toEqual([]);
    expect(decision?.record).toMatchObject({ gate: 'langchain', call_id: 'c2', decision: 'MAY_ACT' });
    expect(decision?.record.consulted.map((c) => c.proposition_id)).toEqual([claimProposition('server01 is healthy')]);
  });

  it('the action alone is DENY, and the refusal says how to record evidence', async () => {
    const [message] = await run([{ name: 'restart', id: 'c1' }]);
    expect(ran).toEqual([]);
    const refusal = JSON.parse(String(message?.content));
    expect(refusal).toMatchObject({ ewpGate: 'DENY', claim: 'server01 is healthy', propositionId: claimProposition('server01 is healthy'), viewId: null });
    expect(refusal.reason).toContain('observe(tool, { claim })');
  });

  it('a result that refutes the claim is recorded against it', async () => {
    health = 'down';
    await run([{ name: 'check_health', id: 'c1' }]);
    const result = await observeResult({ store, claim, supports: (r: Health) => r.status === 'ok' }, 'check_health', { server: 'server01' }, {
      server: 'server01',
      status: 'down',
    } as Health);
    // The same result again is one observation (not new evidence), recorded as opposing the claim.
    expect(result).toMatchObject({ polarity: 'opposes', source: 'tool:check_health', stored: false, propositionId: claimProposition('server01 is healthy') });
  });

  // A claim holds only observations, so a refutation alone leaves it UNACCEPTED: nothing warrants acting.
  it('a gated low-risk action on a refuted claim is DENY', async () => {
    health = 'down';
    const messages = await run([
      { name: 'check_health', id: 'c1' },
      { name: 'restart', id: 'c2' },
    ]);
    expect(ran).toEqual([]);
    expect(JSON.parse(String(messages[1]?.content))).toMatchObject({ ewpGate: 'DENY' });
  });

  it('supports answering undefined records nothing', async () => {
    health = 'timeout';
    await run([{ name: 'check_health', id: 'c1' }]);
    expect(await store.get(claimProposition('server01 is healthy'))).toBeUndefined();
  });

  it('keeps the inner name, description and schema', () => {
    const { check, restart } = tools();
    expect([check.name, check.description, restart.name, restart.description]).toEqual([
      'check_health',
      'Check a server health endpoint',
      'restart',
      'Restart a server',
    ]);
  });

  it('checks its options once, when it wraps, naming the field', () => {
    const inner = tool(async () => 'ok', { name: 'check', description: 'check', schema: z.object({}) });
    const refused = (options: unknown) => {
      try {
        observe(inner, options as never);
      } catch (e) {
        return InvalidArgumentError.isInstance(e) ? (e as InvalidArgumentError).path : String(e);
      }
      return 'accepted';
    };
    expect(refused({ claim: 'x', supports: () => true })).toBe('options.store');
    expect(refused({ store, supports: () => true })).toBe('options.claim');
    expect(refused({ store, claim: 'x' })).toBe('options.supports');
    expect(refused({ store, claim: 'x', supports: () => true })).toBe('accepted');
    expect(() => gate(inner, { store } as never)).toThrow(/claim/);
  });
});
