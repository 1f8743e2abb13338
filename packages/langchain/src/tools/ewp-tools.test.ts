import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { READ_TOOL_NAMES, TOOL_NAMES } from '@ewp/spec/tools';
import { listDecisions, runTool, toolContext } from '@ewp/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel, type ToolMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { ewpTools } from './ewp-tools.js';

const T0 = new Date('2026-09-21T21:00:00Z');

/** One tool call made by a fake model inside a real createAgent graph; the ToolMessage it produced. */
async function viaAgent(tools: ReturnType<typeof ewpTools>, name: string, args: Record<string, unknown>, id = 'c1'): Promise<ToolMessage> {
  const model = new FakeToolCallingModel({ toolCalls: [[{ name, args, id }], []] });
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver() });
  const out = await agent.invoke({ messages: [{ role: 'user', content: 'go' }] }, { configurable: { thread_id: 't' } });
  const message = out.messages.find((m) => m.getType() === 'tool') as ToolMessage | undefined;
  if (message === undefined) throw new Error('no tool message');
  return message;
}

describe('ewpTools', () => {
  it('offers the read tools of the registry, and the ingest tools with the ingest role, in list order', () => {
    const store = new MemoryEvidenceStore();
    const read = ewpTools({ store }).map((t) => t.name);
    expect(read).toEqual([...READ_TOOL_NAMES]);
    expect(read).toContain('ewp_may_act');
    expect(read).not.toContain('ewp_evidence_view_put');
    expect(ewpTools({ store, ingest: true }).map((t) => t.name)).toEqual([...TOOL_NAMES]);
  });

  it('gives the model the same result as the in-process tool for every pack fixture', async () => {
    for (const f of loadFixtures().slice(0, 52)) {
      const store = new MemoryEvidenceStore();
      const tools = ewpTools({ store, ingest: true, now: () => T0 });
      const put = await viaAgent(tools, 'ewp_evidence_view_put', { view: f.view, ingest_attestation: true });
      expect(JSON.parse(String(put.content)), f.name).toMatchObject({ stored: true });
      const id = (f.view as { proposition_id: string }).proposition_id;
      const out = await viaAgent(tools, 'ewp_warrant_now', { proposition_id: id, evaluated_at: f.evaluatedAt });
      const direct = await runTool('ewp_warrant_now', { proposition_id: id, evaluated_at: f.evaluatedAt }, toolContext({ store }));
      expect(JSON.parse(String(out.content)), f.name).toEqual(JSON.parse(JSON.stringify(direct.ok ? direct.value : undefined)));
      expect(out.artifact).toEqual(direct.ok ? direct.value : undefined);
    }
  });

  it('records ewp_may_act under the gate langchain with the model tool call id, and claims that call once', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const args = { proposition_id: 'P-win', action: { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true } };
    const out = JSON.parse(String((await viaAgent(tools, 'ewp_may_act', args, 'call-lc-1')).content)) as Record<string, unknown>;
    expect(out).toMatchObject({ decision: 'MAY_ACT', recorded: true, call_id: 'call-lc-1', claimed: true });
    const decisions = await listDecisions(store);
    expect(decisions.map((d) => [d.record.gate, d.record.call_id, d.decision_id])).toEqual([['langchain', 'call-lc-1', out.decision_id]]);
    // The same call id is one call: asked again, it is not claimed a second time.
    expect(JSON.parse(String((await viaAgent(tools, 'ewp_may_act', args, 'call-lc-1')).content))).toMatchObject({
      error: { code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' },
    });
  });

  it('ewp_decision_outcome reports on a decision ewp_may_act recorded under the gate langchain', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const args = { proposition_id: 'P-win', action: { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true } };
    const decided = JSON.parse(String((await viaAgent(tools, 'ewp_may_act', args, 'call-lc-2')).content)) as { decision_id: string };
    const reported = await viaAgent(tools, 'ewp_decision_outcome', { decision_id: decided.decision_id, outcome: 'succeeded' }, 'call-lc-3');
    expect(JSON.parse(String(reported.content))).toEqual({ recorded: true, decision_id: decided.decision_id, call_id: 'call-lc-2', outcome: 'succeeded' });
  });

  it('malformed arguments get the EWP code and path, not a LangChain parsing error', async () => {
    const tools = ewpTools({ store: new MemoryEvidenceStore() });
    const out = await viaAgent(tools, 'ewp_memory_context', { proposition_id: true });
    expect(JSON.parse(String(out.content))).toMatchObject({ error: { code: 'EWP_REFUSE_INVALID_ARGUMENTS', path: '$.proposition_id' } });
    const noT = await viaAgent(tools, 'ewp_warrant_now', { proposition_id: 'P' });
    expect(JSON.parse(String(noT.content))).toMatchObject({ error: { code: 'EWP_MISSING_EVALUATED_AT' } });
  });
});
