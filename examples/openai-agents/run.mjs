// Offline OpenAI Agents SDK walkthrough: a tool gated by the warrant layer, and a session whose turns
// become evidence. The model is the SDK's ScriptedModel; no network. Run: pnpm --filter @ewp/example-openai-agents start
import { EvidenceSession, ewpTools, gate } from '@ewp/openai-agents';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Agent, MemorySession, RunContext, run, setTracingDisabled, tool } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { z } from 'zod';

setTracingDisabled(true);
let now = new Date('2026-09-23T12:00:00Z');
const store = new MemoryEvidenceStore();
const src = (id, at) => ({
  source_id: id,
  lineage_id: `L-${id}`,
  origin_type: 'tool',
  origin_locator: `winrm://server01/${id}`,
  snapshot_id: id,
  content_hash: `sha256:${id}`,
  observed_at: at,
  extractor_id: null,
  parent_source_id: null,
});

// The ingest side records a tool-verified view through the EWP tools (trusted origins need the attestation).
const putTool = ewpTools({ store, ingest: true, now: () => now }).find((t) => t.name === 'ewp_evidence_view_put');
const observed = '2026-09-23T08:00:00Z';
const put = await putTool.invoke(
  new RunContext(),
  JSON.stringify({
    ingest_attestation: true,
    view: {
      proposition_id: 'P-win',
      freshness_policy_seconds: 604800,
      assertions: [
        {
          assertion_id: 'a1',
          text: 'server01 runs Windows Server 2022',
          asserted_by: 'agent',
          assertion_confidence: 0.9,
          source: src('w1', observed),
          asserted_at: observed,
        },
      ],
      checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: src('w1', observed), observed_at: observed, result: 'supports' }],
    },
  }),
);
console.log('stored:', JSON.stringify(put));

const patched = [];
const patch = tool({
  name: 'patch',
  description: 'Install the Windows Server 2022 security patch on a server',
  parameters: z.object({ server: z.string() }),
  execute: async ({ server }) => {
    patched.push(server);
    return `patched ${server}`;
  },
});
const gated = gate(patch, {
  proposition: 'P-win',
  action: { risk: 'medium', reversible: true },
  store,
  now: () => now,
});
// A model gives every tool call its own id; the gate runs one call id once.
let calls = 0;
const script = () => new ScriptedModel([[functionCall('patch', { server: 'server01' }, { callId: `c${++calls}` })], [assistantMessage('done')]]);
const session = new EvidenceSession({ store, session: new MemorySession({ sessionId: 'ops-1' }), now: () => now });

// 1. Verified and current: MAY_ACT, the tool runs.
let result = await run(new Agent({ name: 'ops', model: script(), tools: [gated] }), 'Patch server01.', { session });
console.log('MAY_ACT:', patched, result.interruptions.length, 'interruptions');

// 2. Nine days later the check is stale: REQUIRE_CONFIRMATION, the run pauses; a human approves.
now = new Date('2026-10-02T12:00:00Z');
const agent = new Agent({ name: 'ops', model: script(), tools: [gated] });
result = await run(agent, 'Patch server01 again.');
console.log(
  'REQUIRE_CONFIRMATION:',
  result.interruptions.map((i) => i.name),
  'patched so far',
  patched.length,
);
result.state.approve(result.interruptions[0]);
result = await run(agent, result.state);
console.log('after approve():', patched);

// 3. A claim nothing was stored for: DENY, the guardrail refuses with the reason the model reads.
const disputed = gate(patch, {
  proposition: 'P-unknown',
  action: { risk: 'high', reversible: false },
  store,
  now: () => now,
});
result = await run(new Agent({ name: 'ops', model: script(), tools: [disputed] }), 'Patch it.');
const refusal = JSON.parse(result.newItems.find((i) => i.type === 'tool_call_output_item').output);
console.log('DENY:', refusal.ewpGate, '-', refusal.reason);

// The session's turns are evidence: a claim that was made, never a verification.
const w = await session.warrant();
console.log(
  'chat:ops-1 turns recorded:',
  (await store.get('chat:ops-1')).assertions.length,
  'acceptance',
  w.warrant.acceptance,
  'verification',
  w.warrant.verification,
);
if (patched.length !== 2 || refusal.ewpGate !== 'DENY' || w.warrant.verification !== 'NONE') process.exit(1);
console.log(
  `decided: patch ran ${patched.length} times (MAY_ACT, then REQUIRE_CONFIRMATION approved), the unsupported action ${refusal.ewpGate}; chat turns ${w.warrant.acceptance}, verification ${w.warrant.verification}`,
);
