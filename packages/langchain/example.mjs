import { gate, observe } from '@ewp/langchain';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { tool } from '@langchain/core/tools';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // or SqliteEvidenceStore, PostgresEvidenceStore, Mem0, Zep...
const schema = z.object({ server: z.string() });
const claim = ({ server }) => `${server} is healthy`; // what the restart depends on, in words
const healthCheck = tool(async ({ server }) => ({ server, status: 'ok' }), { name: 'check_health', description: 'Check a server', schema });
const restartServer = tool(async ({ server }) => `restarted ${server}`, { name: 'restart', description: 'Restart a server', schema });
// Each result of the health check lands on the claim, as an observation of the tool check_health.
const check = observe(healthCheck, { store, claim, supports: (result) => result.status === 'ok' });
// The restart runs only when the evidence for the claim warrants it.
const restart = gate(restartServer, { store, claim, action: { risk: 'low' } });
// An offline model that calls the named tools in turn, then stops; use your own model.
const ask = async (...names) => {
  const model = new FakeToolCallingModel({ toolCalls: [...names.map((name) => [{ name, args: { server: 'server01' }, id: crypto.randomUUID() }]), []] });
  const out = await createAgent({ model, tools: [check, restart] }).invoke({ messages: [{ role: 'user', content: 'Restart server01' }] });
  return out.messages.filter((m) => m.getType() === 'tool').at(-1)?.content;
};

console.log('nothing observed:', await ask('restart')); // DENY: the tool did not run, and the model reads how to record evidence
console.log('observed healthy:', await ask('check_health', 'restart')); // MAY_ACT: restarted server01
