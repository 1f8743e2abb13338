// Offline AI SDK walkthrough: a tool gated by the warrant layer. The model is MockLanguageModelV3
// from `ai/test`, scripted to call the tool; no network. Run: pnpm --filter @ewp/example-ai-sdk start
import { ewpTools, gate } from '@ewp/ai-sdk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { generateText, stepCountIs, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
/** A model that calls `toolName` once, then answers with text. */
function scripted(calls) {
  const turns = [...calls];
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const turn = turns.shift();
      if (typeof turn === 'string') return { content: [{ type: 'text', text: turn }], finishReason: { unified: 'stop' }, usage, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: turn.id, toolName: turn.name, input: JSON.stringify(turn.input) }],
        finishReason: { unified: 'tool-calls' },
        usage,
        warnings: [],
      };
    },
    doStream: async () => ({ stream: convertArrayToReadableStream([]) }),
  });
}

let now = new Date('2026-09-23T12:00:00Z');
const store = new MemoryEvidenceStore();
const tools = ewpTools({ store, ingest: true, now: () => now });
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

// The ingest side records a tool-verified view; trusted origins need the attestation.
const put = await tools.ewp_evidence_view_put.execute(
  {
    view: {
      proposition_id: 'P-win',
      freshness_policy_seconds: 604800,
      assertions: [
        {
          assertion_id: 'a1',
          text: 'server01 runs Windows Server 2022',
          asserted_by: 'agent',
          assertion_confidence: 0.9,
          source: src,
          asserted_at: '2026-09-23T08:00:00Z',
        },
      ],
      checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: src, observed_at: '2026-09-23T08:00:00Z', result: 'supports' }],
    },
    ingest_attestation: true,
  },
  { toolCallId: 'ingest', messages: [] },
);
console.log('stored:', JSON.stringify(put));

const patched = [];
const patch = tool({
  description: 'Install the Windows Server 2022 security patch on a server',
  inputSchema: z.object({ server: z.string() }),
  execute: async ({ server }) => {
    patched.push(server);
    return { patched: server };
  },
});
const gated = gate(patch, { name: 'patch', proposition: 'P-win', action: { risk: 'medium', reversible: true }, store, now: () => now });
// A model gives every tool call its own id; the gate runs one call id once.
const run = (messages, id) =>
  generateText({
    model: scripted([{ id, name: 'patch', input: { server: 'server01' } }, 'done']),
    tools: { patch: gated },
    messages,
    stopWhen: stepCountIs(3),
  });

// 1. Fresh tool evidence: MAY_ACT, the tool runs.
await run([{ role: 'user', content: 'patch server01' }], 'c1');
console.log('1. fresh evidence -> ran:', patched.length === 1);

// 2. Two weeks later the 7-day check is stale: REQUIRE_CONFIRMATION becomes a tool approval.
now = new Date('2026-10-07T12:00:00Z');
const messages = [{ role: 'user', content: 'patch server01 again' }];
const asked = await run(messages, 'c2');
const request = asked.content.find((p) => p.type === 'tool-approval-request');
console.log('2. stale evidence -> approval requested:', request !== undefined, '| ran:', patched.length === 2);
messages.push(...asked.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
await generateText({ model: scripted(['patched after confirmation']), tools: { patch: gated }, messages });
console.log('   after a human approved -> ran:', patched.length === 2);

// 3. A high-risk action on a proposition with no evidence: DENY, with a result the model reads.
const risky = gate(patch, {
  name: 'patch',
  proposition: 'P-unknown',
  action: { id: 'wipe', kind: 'wipe', risk: 'high', reversible: false },
  store,
  now: () => now,
});
const denied = await generateText({
  model: scripted([{ id: 'c2', name: 'patch', input: { server: 'server02' } }, 'I may not.']),
  tools: { patch: risky },
  prompt: 'wipe server02',
  stopWhen: stepCountIs(3),
});
console.log('3. no evidence, high risk ->', JSON.stringify(denied.steps[0].toolResults[0].output.ewpGate), '| ran:', patched.includes('server02'));

// What the model sees when it asks for the memory context.
const ctx = await tools.ewp_memory_context.execute({ proposition_id: 'P-win' }, { toolCallId: 'ctx', messages: [] });
console.log('memory context:', JSON.stringify(ctx.warrant), ctx.warnings);
console.log(
  `decided: fresh tool evidence MAY_ACT (patch ran: ${patched.includes('server01')}), stale evidence REQUIRE_CONFIRMATION (ran after a human approved: ${patched.length === 2}), no evidence at high risk ${denied.steps[0].toolResults[0].output.ewpGate} (ran: ${patched.includes('server02')})`,
);
