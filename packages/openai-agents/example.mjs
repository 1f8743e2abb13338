import { MemoryEvidenceStore } from '@ewp/ledger';
import { gateAgentTool } from '@ewp/openai-agents';
import { Agent, run, setTracingDisabled, tool } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { z } from 'zod';

setTracingDisabled(true);
const store = new MemoryEvidenceStore(); // any EvidenceStore; nothing is stored for P-server01-healthy yet
const restart = tool({
  name: 'restart',
  description: 'Restart a server',
  parameters: z.object({ server: z.string() }),
  execute: async ({ server }) => `restarted ${server}`,
});
const gated = gateAgentTool(restart, { proposition: 'P-server01-healthy', action: { action_id: 'restart', kind: 'restart', risk: 'high' }, store });
// An offline model that asks for the restart, then answers; use a real model in your agent.
const model = new ScriptedModel([[functionCall('restart', { server: 'server01' }, { callId: 'c1' })], [assistantMessage('Not restarted.')]]);
const result = await run(new Agent({ name: 'ops', model, tools: [gated] }), 'Restart server01 if it is safe.');
console.log(result.newItems.find((i) => i.type === 'tool_call_output_item').output); // the DENY refusal the model read
