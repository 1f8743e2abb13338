import { MemoryEvidenceStore } from '@ewp/ledger';
import { gateMastraTool, warrantToolHooks } from '@ewp/mastra';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // any EvidenceStore; nothing is stored for P-server01-healthy yet
const restart = createTool({
  id: 'restart',
  description: 'Restart a server',
  inputSchema: z.object({ server: z.string() }),
  execute: async ({ server }) => ({ restarted: server }),
});
const gates = { restart: { proposition: 'P-server01-healthy', action: { action_id: 'restart', kind: 'restart', risk: 'high' }, store } };
// An offline model that asks for the restart, then answers; use a real model in your agent.
const turns = [
  { type: 'tool-call', toolCallId: 'c1', toolName: 'restart', input: '{"server":"server01"}' },
  { type: 'text', text: 'Not restarted.' },
];
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const model = new MockLanguageModelV3({ doGenerate: async () => ({ content: [turns.shift()], finishReason: { unified: 'stop' }, usage, warnings: [] }) });
const agent = new Agent({
  id: 'ops',
  name: 'ops',
  instructions: 'Operate servers.',
  model,
  tools: { restart: gateMastraTool(restart, gates.restart) },
  hooks: warrantToolHooks(gates),
});
const result = await agent.generate('Restart server01 if it is safe.');
console.log(result.toolResults[0].payload.result); // the DENY refusal the model read
