import { warrantCallbacks } from '@ewp/adk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { BaseLlm, FunctionTool, getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // any EvidenceStore; nothing is stored for P-server01-healthy yet
const parameters = z.object({ server: z.string() });
const restart = new FunctionTool({ name: 'restart', description: 'Restart a server', parameters, execute: async ({ server }) => ({ restarted: server }) });
const gates = { restart: { proposition: 'P-server01-healthy', action: { action_id: 'restart', kind: 'restart', risk: 'high' }, store } };
// An offline model that asks for the restart, then answers; use a Gemini model name in your agent.
class ScriptedLlm extends BaseLlm {
  turns = [{ functionCall: { name: 'restart', args: { server: 'server01' }, id: 'c1' } }, { text: 'Not restarted.' }];
  async *generateContentAsync() {
    yield { content: { role: 'model', parts: [this.turns.shift()] } };
  }
}
const agent = new LlmAgent({ name: 'ops', model: new ScriptedLlm({ model: 'scripted' }), tools: [restart], ...warrantCallbacks({ gates }) });
const runner = new InMemoryRunner({ agent });
for await (const event of runner.runEphemeral({ userId: 'u1', newMessage: { role: 'user', parts: [{ text: 'Restart server01 if it is safe.' }] } })) {
  for (const r of getFunctionResponses(event)) console.log(r.response); // the DENY refusal the model read; restart never ran
}
