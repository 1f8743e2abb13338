// The Mastra walkthrough itself (run.mjs starts it under Node >= 22.13).
import { MemoryEvidenceStore } from '@ewp/ledger';
import { gate as gateTool, WarrantMemoryProcessor, warrantToolHooks } from '@ewp/mastra';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

let now = new Date('2026-09-23T12:00:00Z');
const store = new MemoryEvidenceStore();
const src = {
  source_id: 'w1',
  lineage_id: 'L-w1',
  origin_type: 'tool',
  origin_locator: 'winrm://server01',
  snapshot_id: 'w1',
  content_hash: 'sha256:w1',
  observed_at: '2026-09-23T08:00:00Z',
  extractor_id: null,
  parent_source_id: null,
};
await store.put({
  proposition_id: 'P-win',
  freshness_policy_seconds: 604800,
  assertions: [
    {
      assertion_id: 'a1',
      proposition_id: 'P-win',
      text: 'server01 runs Windows Server 2022',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      source: src,
      asserted_at: src.observed_at,
    },
  ],
  checks: [
    { check_id: 'k1', proposition_id: 'P-win', method: 'tool_observation', scope: 'server01', source: src, observed_at: src.observed_at, result: 'supports' },
  ],
});

const patched = [];
const patch = createTool({
  id: 'patch',
  description: 'Install the Windows Server 2022 security patch',
  inputSchema: z.object({ server: z.string() }),
  execute: async ({ server }) => {
    patched.push(server);
    return { patched: server };
  },
});
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
/** Numbers the tool calls: a model gives every call its own id, and the gate runs one call id once. */
let calls = 0;
/** A model that asks for the patch, then answers; the prompts it got are kept. */
function model(prompts = []) {
  let turn = 0;
  const reply = (options) => {
    prompts.push(options.prompt);
    return turn++ % 2 === 0
      ? {
          content: [{ type: 'tool-call', toolCallId: `c${++calls}`, toolName: 'patch', input: '{"server":"server01"}' }],
          finishReason: { unified: 'tool-calls' },
          usage,
          warnings: [],
        }
      : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop' }, usage, warnings: [] };
  };
  return new MockLanguageModelV3({
    doGenerate: async (options) => reply(options),
    doStream: async (options) => {
      const r = reply(options);
      const parts = [{ type: 'stream-start', warnings: [] }];
      for (const c of r.content) {
        if (c.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: c.text }, { type: 'text-end', id: 't' });
        else parts.push(c);
      }
      parts.push({ type: 'finish', finishReason: r.finishReason, usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}
const agentWith = (gate, prompts) => {
  const agent = new Agent({
    id: 'ops',
    name: 'ops',
    instructions: 'Operate servers.',
    model: model(prompts),
    tools: { patch: gateTool(patch, gate) },
    hooks: warrantToolHooks({ patch: gate }),
  });
  return new Mastra({ agents: { ops: agent }, storage: new InMemoryStore(), logger: false }).getAgent('ops');
};
const gate = { proposition: 'P-win', action: { risk: 'medium', reversible: true }, store, now: () => now };

// 1. Verified and current: MAY_ACT, the tool runs.
await agentWith(gate).generate('Patch server01.');
console.log('MAY_ACT:', patched);

// 2. Nine days later the check is stale: REQUIRE_CONFIRMATION, the run suspends for approval.
now = new Date('2026-10-02T12:00:00Z');
const agent = agentWith(gate);
const stream = await agent.stream('Patch server01 again.');
const kinds = [];
for await (const chunk of stream.fullStream) kinds.push(chunk.type);
console.log('REQUIRE_CONFIRMATION:', kinds.includes('tool-call-approval') ? 'approval asked' : 'no approval asked', '- patched so far', patched.length);
const resumed = await agent.approveToolCall({ runId: stream.runId });
for await (const _ of resumed.fullStream) {
  // drain
}
console.log('after approveToolCall:', patched);

// 3. Nothing stored for the claim: DENY, beforeToolCall refuses and the model reads why.
const denied = await agentWith({ ...gate, proposition: 'P-unknown', action: { ...gate.action, risk: 'high' } }).generate('Patch it.');
const refusal = denied.toolResults[0].payload.result;
console.log('DENY:', refusal.ewpGate, '-', refusal.reason);

// 4. A recalled message that names P-win carries its warrant to the model.
const processor = new WarrantMemoryProcessor({ store, now: () => now });
console.log('warrant of a recalled P-win message:', JSON.stringify(await processor.warrantOf('P-win', now.toISOString())));
if (patched.length !== 2 || refusal.ewpGate !== 'DENY') process.exit(1);
console.log(
  `decided: fresh evidence MAY_ACT (patched), stale evidence REQUIRE_CONFIRMATION (patched after approveToolCall: ${patched.length === 2}), nothing stored ${refusal.ewpGate} (not run)`,
);
