/**
 * `observe()` and `withToolApproval()` under AI SDK 7 on one claim: the observed check's result lands
 * on the claim, and the gated action on it is approved (low risk); the action alone is denied, and the
 * model reads how to record evidence.
 */
import { observe, withToolApproval } from '@ewp/ai-sdk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, listDecisions } from '@ewp/tools';
import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModelV4 } from '../test/scripted-model-v4.js';

const CLAIM = 'server01 is healthy';

function setup() {
  const store = new MemoryEvidenceStore();
  const restarted: string[] = [];
  const healthCheck = tool({
    description: 'Check a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => ({ server, ok: true }),
  });
  const restart = tool({
    description: 'Restart a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      restarted.push(server);
      return `restarted ${server}`;
    },
  });
  const { tools, toolApproval } = withToolApproval(
    { health_check: observe(healthCheck, { name: 'health_check', store, claim: CLAIM, supports: (r) => r.ok }), restart },
    { restart: { claim: CLAIM, store } },
  );
  return { store, restarted, tools, toolApproval };
}

const check = { toolCalls: [{ id: 'h1', name: 'health_check', input: { server: 'server01' } }] };
const restartCall = { toolCalls: [{ id: 'r1', name: 'restart', input: { server: 'server01' } }] };

describe('observe + withToolApproval (AI SDK 7)', () => {
  it('the observed check, then the action on its claim: approved and run', async () => {
    const { store, restarted, tools, toolApproval } = setup();
    const model = scriptedModelV4([check, restartCall, { text: 'done' }]);
    const result = await generateText({ model, tools, toolApproval, prompt: 'restart server01 if healthy', stopWhen: stepCountIs(4) });
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ server: 'server01', ok: true });
    expect(restarted).toEqual(['server01']);
    const view = await store.get(claimProposition(CLAIM));
    expect(view?.evidence.map((e) => [e.polarity, e.source.origin_locator])).toEqual([['supports', 'tool:health_check']]);
    const decided = await listDecisions(store, { proposition: claimProposition(CLAIM) });
    expect(decided.map((d) => [d.record.decision, d.record.gate])).toContainEqual(['MAY_ACT', 'ai-sdk-v7']);
  });

  it('the action alone: denied, the reason says how to record evidence', async () => {
    const { restarted, tools, toolApproval } = setup();
    const model = scriptedModelV4([restartCall, { text: 'refused' }]);
    const result = await generateText({ model, tools, toolApproval, prompt: 'restart server01', stopWhen: stepCountIs(3) });
    expect(restarted).toEqual([]);
    const denied = result.content.find((p) => p.type === 'tool-approval-response' && p.approved === false) as { reason?: string } | undefined;
    expect(denied?.reason).toMatch(/no stored evidence for "server01 is healthy".*observe\(tool, \{ claim \}\)/);
  });
});
