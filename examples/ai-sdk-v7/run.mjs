// Offline AI SDK 7 walkthrough: one tool, the warrant gate as the call-level `toolApproval`. The model
// is MockLanguageModelV4 from `ai/test`, scripted to call the tool; no network. Needs Node 22.
// Run: pnpm --filter @ewp/example-ai-sdk-v7 start
import { withToolApproval } from '@ewp/ai-sdk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
/** A model that calls `restart` once, then answers with text. */
const scripted = () => {
  let turn = 0;
  return new MockLanguageModelV4({
    doGenerate: async () =>
      turn++ === 0
        ? {
            content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'restart', input: '{"server":"server01"}' }],
            finishReason: { unified: 'tool-calls' },
            usage,
            warnings: [],
          }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop' }, usage, warnings: [] },
  });
};

// P-win: "server01 runs Windows Server 2022", tool-verified on 2026-09-21 with a 7-day freshness window.
const store = new MemoryEvidenceStore();
// P-win: "server01 runs Windows Server 2022", observed by a WinRM tool call on 2026-09-21, fresh for 7 days.
const winrm = {
  source_id: 'winrm',
  lineage_id: 'L-obs',
  origin_type: 'tool',
  origin_locator: 'winrm://server01',
  snapshot_id: 'snap:winrm',
  content_hash: 'sha256:winrm',
  observed_at: '2026-09-21T18:31:00Z',
  extractor_id: null,
  parent_source_id: null,
};
const verified = {
  proposition_id: 'P-win',
  freshness_policy_seconds: 604800,
  assertions: [
    {
      assertion_id: 'a1',
      text: 'server01 runs Windows Server 2022',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      source: winrm,
      asserted_at: winrm.observed_at,
    },
  ],
  checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: winrm, observed_at: winrm.observed_at, result: 'supports' }],
};
await store.put(verified);
const ran = [];
const restart = tool({
  description: 'Restart a server',
  inputSchema: z.object({ server: z.string() }),
  execute: async ({ server }) => {
    ran.push(server);
    return { restarted: server };
  },
});

const decisions = [];
for (const [label, at, risk] of [
  ['fresh check, high risk', '2026-09-21T21:00:00Z', 'high'],
  ['stale check, medium risk', '2026-10-05T00:00:00Z', 'medium'],
  ['stale check, high risk', '2026-10-05T00:00:00Z', 'high'],
]) {
  ran.length = 0;
  // The tools and the approval together: decisions under the gate ai-sdk-v7 with the SDK's toolCallId,
  // each approved call executed once through runGuarded and recorded succeeded or failed.
  const { tools, toolApproval } = withToolApproval(
    { restart },
    { restart: { proposition: 'P-win', action: { risk, reversible: true }, store, now: () => new Date(at) } },
  );
  const result = await generateText({ model: scripted(), tools, toolApproval, prompt: 'restart server01', stopWhen: stepCountIs(3) });
  const request = result.content.find((p) => p.type === 'tool-approval-request' && !p.isAutomatic);
  const denied = result.content.find((p) => p.type === 'tool-approval-response' && !p.approved);
  const outcome = ran.length > 0 ? 'approved: the tool ran' : request ? `user-approval asked: ${request.reason}` : `denied: ${denied?.reason}`;
  console.log(`${label}: ${outcome}`);
  decisions.push(`${label} → ${outcome.split(':')[0]}`);
}
console.log(`decided: ${decisions.join('; ')}`);
