/**
 * `withToolApproval()` under AI SDK 7: decisions recorded under `ai-sdk-v7` with the SDK's toolCallId,
 * the tool's execute claimed once per call through runGuarded and recorded succeeded / failed, and a
 * human approval recorded as the confirmation (an approval sent again does not run the call twice).
 */
import { withToolApproval } from '@ewp/ai-sdk';
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { decisionHistory, listDecisions } from '@ewp/tools';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModelV4 } from '../test/scripted-model-v4.js';

const fixtures = loadFixtures();
const T0 = new Date('2026-09-21T21:00:00Z');
const LATER = new Date('2026-10-05T00:00:00Z');

async function setup(fail = false) {
  const store = new MemoryEvidenceStore();
  await store.put(structuredClone(fixtures.find((f) => f.name === '08-verified-now')!.view));
  const calls: string[] = [];
  const restart = tool({
    description: 'Restart a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      calls.push(server);
      if (fail) throw new Error('restart failed');
      return { restarted: server };
    },
  });
  return { store, calls, restart };
}
const call = (id: string) => ({ toolCalls: [{ id, name: 'restart', input: { server: 'server01' } }] });
const MEDIUM = { id: 'restart', kind: 'restart', risk: 'medium', reversible: true } as const;

describe('withToolApproval (AI SDK 7): one record path', () => {
  it('MAY_ACT: every decision of the call under ai-sdk-v7 and the toolCallId, executed once, succeeded', async () => {
    const { store, calls, restart } = await setup();
    const { tools, toolApproval } = withToolApproval({ restart }, { restart: { proposition: 'P-win', action: MEDIUM, store, now: () => T0 } });
    await generateText({ model: scriptedModelV4([call('call-ok'), { text: 'done' }]), tools, toolApproval, prompt: 'restart', stopWhen: stepCountIs(3) });
    expect(calls).toEqual(['server01']);
    const decided = await listDecisions(store);
    expect(decided.length).toBeGreaterThan(0);
    expect(new Set(decided.map((d) => `${d.record.gate} ${d.record.call_id}`))).toEqual(new Set(['ai-sdk-v7 call-ok']));
    const outcomes = await Promise.all(decided.map(async (d) => (await decisionHistory(store, d.decision_id)).outcome?.body.status ?? null));
    expect(outcomes.filter((o) => o !== null)).toEqual(['succeeded']);
  });

  it('a failing execute is recorded failed with its error', async () => {
    const { store, restart } = await setup(true);
    const { tools, toolApproval } = withToolApproval({ restart }, { restart: { proposition: 'P-win', action: MEDIUM, store, now: () => T0 } });
    await generateText({
      model: scriptedModelV4([call('call-fail'), { text: 'it failed' }]),
      tools,
      toolApproval,
      prompt: 'restart',
      stopWhen: stepCountIs(3),
    });
    const bodies = await Promise.all((await listDecisions(store)).map(async (d) => (await decisionHistory(store, d.decision_id)).outcome?.body));
    expect(bodies.filter((b) => b !== undefined)).toEqual([expect.objectContaining({ status: 'failed', error: 'Error: restart failed' })]);
  });

  it('REQUIRE_CONFIRMATION: the human approval is the recorded confirmation; the same approval sent again does not run it twice', async () => {
    const { store, calls, restart } = await setup();
    const { tools, toolApproval } = withToolApproval({ restart }, { restart: { proposition: 'P-win', action: MEDIUM, store, now: () => LATER } });
    const model = scriptedModelV4([call('call-ask'), { text: 'ok' }, { text: 'ok again' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'restart' }];
    const first = await generateText({ model, tools, toolApproval, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request') as { approvalId: string };
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    await generateText({ model, tools, toolApproval, messages: [...messages], stopWhen: stepCountIs(2) });
    await generateText({ model, tools, toolApproval, messages: [...messages], stopWhen: stepCountIs(2) });
    expect(calls).toEqual(['server01']);
    const histories = await Promise.all((await listDecisions(store)).map((d) => decisionHistory(store, d.decision_id)));
    expect(histories.every((h) => h.decision.record.gate === 'ai-sdk-v7' && h.decision.record.call_id === 'call-ask')).toBe(true);
    const confirmed = histories.filter((h) => h.confirmation !== null);
    expect(confirmed.map((h) => h.confirmation?.body.confirmed_by)).toContain('ai-sdk-v7 tool approval call-ask');
    expect(histories.map((h) => h.outcome?.body.status).filter((s) => s !== undefined)).toEqual(['succeeded', 'call_already_executed']);
  });
});
