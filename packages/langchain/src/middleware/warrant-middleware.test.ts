/**
 * `warrantMiddleware` in a real `createAgent` (langchain v1) with langchain's FakeToolCallingModel:
 * MAY_ACT runs the tool, DENY answers with the refusal, REQUIRE_CONFIRMATION interrupts and resumes,
 * decided again on resume; ungated tools pass.
 */
import { InvalidArgumentError } from '@ewp/core';
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel, type ToolMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { warrantMiddleware } from './warrant-middleware.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);
const T0 = new Date('2026-09-21T21:00:00Z');
const LATER = new Date('2026-10-05T00:00:00Z'); // P-win's 7-day check is stale: TENTATIVE

async function setup(risk: 'medium' | 'high', proposition = 'P-win') {
  const store = new MemoryEvidenceStore();
  await store.put(fixture('08-verified-now'));
  await store.put(fixture('02-fork-x'));
  const clock = { at: T0 };
  const ran: string[] = [];
  const restart = tool(
    async ({ server }: { server: string }) => {
      ran.push(`restart ${server}`);
      return `restarted ${server}`;
    },
    { name: 'restart', description: 'Restart a server', schema: z.object({ server: z.string() }) },
  );
  const status = tool(
    async ({ server }: { server: string }) => {
      ran.push(`status ${server}`);
      return `${server} is up`;
    },
    { name: 'status', description: 'Server status', schema: z.object({ server: z.string() }) },
  );
  const model = new FakeToolCallingModel({
    toolCalls: [
      [
        { name: 'restart', args: { server: 'server01' }, id: 'c1' },
        { name: 'status', args: { server: 'server01' }, id: 'c2' },
      ],
      [],
    ],
  });
  const middleware = warrantMiddleware({
    restart: { proposition, action: { id: 'restart', kind: 'restart', risk, reversible: false }, store, now: () => clock.at },
  });
  const agent = createAgent({ model, tools: [restart, status], middleware: [middleware], checkpointer: new MemorySaver() });
  return { store, clock, ran, agent };
}

const toolMessages = (state: { messages: unknown[] }) =>
  state.messages.filter((m): m is ToolMessage => (m as { getType?: () => string }).getType?.() === 'tool');
const input = { messages: [{ role: 'user', content: 'restart server01' }] };

describe('warrantMiddleware in createAgent', () => {
  it('MAY_ACT runs the gated tool; the ungated tool passes', async () => {
    const { ran, agent } = await setup('high');
    const out = await agent.invoke(input, { configurable: { thread_id: 'm1' } });
    expect(ran.sort()).toEqual(['restart server01', 'status server01']);
    expect(toolMessages(out).map((m) => m.content)).toEqual(['restarted server01', 'server01 is up']);
  });

  it('DENY answers the model with the typed refusal and never runs the tool', async () => {
    const { ran, agent } = await setup('high', 'P-x');
    const out = await agent.invoke(input, { configurable: { thread_id: 'm2' } });
    expect(ran).toEqual(['status server01']);
    const refusal = toolMessages(out).find((m) => m.tool_call_id === 'c1');
    expect(refusal?.status).toBe('error');
    expect(JSON.parse(String(refusal?.content))).toMatchObject({ ewpGate: 'DENY', propositionId: 'P-x', acceptance: 'TENTATIVE', conflict: 'OPEN' });
  });

  it('no stored evidence: DENY', async () => {
    const { ran, agent } = await setup('medium', 'P-unknown');
    const out = await agent.invoke(input, { configurable: { thread_id: 'm3' } });
    expect(ran).toEqual(['status server01']);
    expect(JSON.parse(String(toolMessages(out).find((m) => m.tool_call_id === 'c1')?.content))).toMatchObject({ ewpGate: 'DENY', viewId: null });
  });

  it('REQUIRE_CONFIRMATION interrupts; an approval on resume runs it', async () => {
    const { ran, clock, agent } = await setup('medium');
    clock.at = LATER;
    const config = { configurable: { thread_id: 'm4' } };
    const paused = (await agent.invoke(input, config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(ran).not.toContain('restart server01');
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({
      ewpGate: 'REQUIRE_CONFIRMATION',
      tool: 'restart',
      args: { server: 'server01' },
      currency: 'STALE',
    });
    const resumed = await agent.invoke(new Command({ resume: { approved: true } }), config);
    expect(ran).toContain('restart server01');
    expect(toolMessages(resumed).find((m) => m.tool_call_id === 'c1')?.content).toBe('restarted server01');
  });

  it('a refusal on resume does not run it', async () => {
    const { ran, clock, agent } = await setup('medium');
    clock.at = LATER;
    const config = { configurable: { thread_id: 'm5' } };
    await agent.invoke(input, config);
    const resumed = await agent.invoke(new Command({ resume: false }), config);
    expect(ran).not.toContain('restart server01');
    expect(JSON.parse(String(toolMessages(resumed).find((m) => m.tool_call_id === 'c1')?.content))).toMatchObject({ ewpGate: 'REQUIRE_CONFIRMATION' });
  });

  it('evidence superseded while paused refuses the approved call (decided again on resume)', async () => {
    const { store, ran, clock, agent } = await setup('medium');
    clock.at = LATER;
    const config = { configurable: { thread_id: 'm6' } };
    await agent.invoke(input, config);
    await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-win-2025', kind: 'superseded_by' } }]);
    // medium risk, irreversible, superseded and no longer accepted: still not a plain MAY_ACT; the
    // decision is made again, so the refusal (or a new interrupt) reflects the new evidence.
    const resumed = (await agent.invoke(new Command({ resume: { approved: true } }), config)) as {
      __interrupt__?: Array<{ value: unknown }>;
      messages: unknown[];
    };
    const pendingOrRefused = resumed.__interrupt__?.[0]?.value ?? JSON.parse(String(toolMessages(resumed).find((m) => m.tool_call_id === 'c1')?.content));
    expect(pendingOrRefused).toMatchObject({ currency: 'SUPERSEDED' });
    expect(ran).toEqual(expect.not.arrayContaining(['restart server01']));
  });

  it('refuses gates that are not an object and an entry without a store, naming the argument', () => {
    expect(() => warrantMiddleware(null as never)).toThrow(InvalidArgumentError);
    try {
      warrantMiddleware({ restart: { proposition: 'P', action: { id: 'a', kind: 'k' }, store: undefined as never } });
      expect.unreachable();
    } catch (e) {
      expect(InvalidArgumentError.isInstance(e)).toBe(true);
      expect((e as InvalidArgumentError).path).toBe('gates.restart.store');
    }
  });
});
