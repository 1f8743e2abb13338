import { MemoryEvidenceStore } from '@ewp/ledger';
import { callClaimId, DECISION_ENTRY_KINDS, decisionHistory, listDecisions } from '@ewp/tools';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver, type StateSnapshot } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel, type ToolMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gate } from './gate-tool.js';

const src = {
  source_id: 'winrm',
  lineage_id: 'L-winrm',
  origin_type: 'tool',
  origin_locator: 'winrm://server01',
  snapshot_id: 's1',
  content_hash: 'sha256:1',
  observed_at: '2026-09-23T08:00:00Z',
  extractor_id: null,
  parent_source_id: null,
};
const verified = {
  proposition_id: 'P-win',
  view_id: 'v1',
  freshness_policy_seconds: 604800,
  assertions: [
    {
      assertion_id: 'a1',
      text: 'server01 runs Windows Server 2022',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      source: src,
      asserted_at: src.observed_at,
    },
  ],
  checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: src, observed_at: src.observed_at, result: 'supports' }],
};
/** The same claim, now opposed by a fresh tool check: an open conflict. */
const opposed = {
  ...verified,
  view_id: 'v2',
  checks: [
    ...verified.checks,
    {
      check_id: 'k2',
      method: 'tool_observation',
      scope: 'server01',
      source: { ...src, source_id: 'winrm2', lineage_id: 'L-2', snapshot_id: 's2', content_hash: 'sha256:2', observed_at: '2026-09-23T10:00:00Z' },
      observed_at: '2026-09-23T10:00:00Z',
      result: 'opposes',
    },
  ],
};

function setup(now: { at: Date }, risk: 'medium' | 'high' = 'medium', riskPolicy?: { highRequiresAccepted: boolean }) {
  const store = new MemoryEvidenceStore();
  const ran: string[] = [];
  const patch = tool(
    async ({ server }: { server: string }) => {
      ran.push(server);
      return `patched ${server}`;
    },
    { name: 'patch', description: 'Install the security patch on a server', schema: z.object({ server: z.string() }) },
  );
  const gated = gate(patch, {
    proposition: 'P-win',
    action: { id: 'patch', kind: 'patch', risk, reversible: true },
    store,
    now: () => now.at,
    ...(riskPolicy === undefined ? {} : { riskPolicy }),
  });
  const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'patch', args: { server: 'server01' }, id: 'c1' }], []] });
  const agent = createAgent({ model, tools: [gated], checkpointer: new MemorySaver() });
  return { store, ran, agent };
}

const toolMessages = (state: { messages: unknown[] }) =>
  state.messages.filter((m): m is ToolMessage => (m as { getType?: () => string }).getType?.() === 'tool');

describe('gate() in createAgent', () => {
  it('MAY_ACT runs the tool', async () => {
    const now = { at: new Date('2026-09-23T12:00:00Z') };
    const { store, ran, agent } = setup(now);
    await store.put(verified as never);
    const out = await agent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, { configurable: { thread_id: 't1' } });
    expect(ran).toEqual(['server01']);
    expect(toolMessages(out)[0]?.content).toBe('patched server01');
  });

  it('REQUIRE_CONFIRMATION pauses the graph; an approval on resume runs it, decided again at that moment', async () => {
    const now = { at: new Date('2026-10-07T12:00:00Z') }; // the 7-day check is stale: confirmation
    const { store, ran, agent } = setup(now);
    await store.put(verified as never);
    const config = { configurable: { thread_id: 't2' } };
    const paused = (await agent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(ran).toEqual([]);
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({
      ewpGate: 'REQUIRE_CONFIRMATION',
      tool: 'patch',
      args: { server: 'server01' },
      currency: 'STALE',
    });
    const resumed = await agent.invoke(new Command({ resume: { approved: true } }), config);
    expect(ran).toEqual(['server01']);
    expect(toolMessages(resumed).at(-1)?.content).toBe('patched server01');
  });

  it('a resume replayed from the paused checkpoint decides again and is refused: the approved call runs once', async () => {
    const now = { at: new Date('2026-10-07T12:00:00Z') };
    const { store, ran, agent } = setup(now);
    await store.put(verified as never);
    const config = { configurable: { thread_id: 't-replay' } };
    await agent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, config);
    // The agent's getState is typed `never` by createAgent's generics; it is a StateSnapshot.
    const paused: StateSnapshot = await agent.getState(config);
    expect(paused.tasks.some((t) => t.interrupts.length > 0)).toBe(true);
    await agent.invoke(new Command({ resume: { approved: true } }), config);
    expect(ran).toEqual(['server01']);
    // The same resume again, from the checkpoint that paused (LangGraph replays the tool node from its start).
    now.at = new Date('2026-10-07T12:05:00Z');
    const replay = await agent.invoke(new Command({ resume: { approved: true } }), paused.config);
    expect(ran).toEqual(['server01']);
    // The tool node hands the model the gate's DecisionError as the call's result.
    expect(String(toolMessages(replay).at(-1)?.content)).toMatch(/^DecisionError: call "c1" of gate "langchain" was already executed under decision dec_/);
    // Every decision names this gate and the tool call; two were confirmed, one ran, the replay's refusal is its outcome.
    const histories = await Promise.all((await listDecisions(store, { proposition: 'P-win' })).map((d) => decisionHistory(store, d.decision_id)));
    for (const h of histories) expect(h.decision.record).toMatchObject({ gate: 'langchain', call_id: 'c1' });
    expect(histories.filter((h) => h.confirmation !== null).map((h) => [h.execution === null ? 'not claimed' : 'claimed', h.outcome?.body.status])).toEqual([
      ['claimed', 'succeeded'],
      ['not claimed', 'call_already_executed'],
    ]);
    expect(await store.readEntries({ kind: DECISION_ENTRY_KINDS.call })).toMatchObject([{ id: callClaimId('langchain', 'c1') }]);
  });

  it('a refusal on resume does not run it', async () => {
    const now = { at: new Date('2026-10-07T12:00:00Z') };
    const { store, ran, agent } = setup(now);
    await store.put(verified as never);
    const config = { configurable: { thread_id: 't3' } };
    await agent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, config);
    const resumed = await agent.invoke(new Command({ resume: false }), config);
    expect(ran).toEqual([]);
    expect(JSON.parse(String(toolMessages(resumed).at(-1)?.content))).toMatchObject({ ewpGate: 'REQUIRE_CONFIRMATION' });
  });

  it('evidence that turned to DENY while paused refuses the approved call', async () => {
    const now = { at: new Date('2026-09-23T12:00:00Z') };
    // The operator lets tentative claims through high-risk gates, with a human.
    const { store, ran, agent } = setup(now, 'high', { highRequiresAccepted: false });
    // High risk on a tentative claim from an incomplete (degraded) retrieval asks a human.
    await store.put({ ...verified, degraded: true } as never);
    const config = { configurable: { thread_id: 't4' } };
    const paused = (await agent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, config)) as { __interrupt__?: Array<{ value: unknown }> };
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ ewpGate: 'REQUIRE_CONFIRMATION', sufficiency: 'DEGRADED' });
    // While paused, an opposing tool check arrives: conflict OPEN.
    await store.put({ ...opposed, degraded: true } as never);
    const resumed = await agent.invoke(new Command({ resume: { approved: true } }), config);
    expect(ran).toEqual([]);
    expect(JSON.parse(String(toolMessages(resumed).at(-1)?.content))).toMatchObject({ ewpGate: 'DENY', conflict: 'OPEN' });
  });

  it('no stored evidence: DENY with a refusal the model reads', async () => {
    const now = { at: new Date('2026-09-23T12:00:00Z') };
    const { ran, agent } = setup(now, 'high');
    const out = await agent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, { configurable: { thread_id: 't5' } });
    expect(ran).toEqual([]);
    expect(JSON.parse(String(toolMessages(out)[0]?.content))).toMatchObject({ ewpGate: 'DENY', viewId: null });
  });
});
