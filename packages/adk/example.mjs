import { gate, observe } from '@ewp/adk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { BaseLlm, FunctionTool, getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // or SqliteEvidenceStore, PostgresEvidenceStore, Mem0, Zep...
const parameters = z.object({ server: z.string() });
const claim = ({ server }) => `${server} is healthy`; // what the restart depends on, in words
const healthCheck = new FunctionTool({
  name: 'check_health',
  description: 'Check a server',
  parameters,
  execute: async ({ server }) => ({ server, status: 'ok' }),
});
const restartServer = new FunctionTool({ name: 'restart', description: 'Restart a server', parameters, execute: async ({ server }) => `restarted ${server}` });
// Each result of the health check lands on the claim, as an observation of the tool check_health.
const check = observe(healthCheck, { store, claim, supports: (result) => result.status === 'ok' });
// The restart runs only when the evidence for the claim warrants it.
const restart = gate(restartServer, { store, claim, action: { risk: 'low' } });
// An offline model that calls the named tools in turn, then answers; use a Gemini model name in your agent.
class ScriptedLlm extends BaseLlm {
  constructor(names) {
    super({ model: 'scripted' });
    this.turns = [...names.map((name) => ({ functionCall: { name, args: { server: 'server01' }, id: name } })), { text: 'done' }];
  }
  async *generateContentAsync() {
    yield { content: { role: 'model', parts: [this.turns.shift()] } };
  }
}
const ask = async (...names) => {
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model: new ScriptedLlm(names), tools: [check, restart] }) });
  const responses = [];
  for await (const event of runner.runEphemeral({ userId: 'u1', newMessage: { role: 'user', parts: [{ text: 'Restart server01' }] } }))
    responses.push(...getFunctionResponses(event));
  return responses.at(-1)?.response;
};

console.log('nothing observed:', await ask('restart')); // DENY: the tool did not run, and the model reads how to record evidence
console.log('observed healthy:', await ask('check_health', 'restart')); // MAY_ACT: restarted server01
