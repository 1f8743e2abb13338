import { gate, observe } from '@ewp/langchain';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { tool } from '@langchain/core/tools';
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
// A tool call as a model (or createAgent's ToolNode) makes it; give both tools to your agent.
const call = async (t) => (await t.invoke({ type: 'tool_call', id: crypto.randomUUID(), name: t.name, args: { server: 'server01' } })).content;

console.log('nothing observed:', await call(restart)); // DENY: the tool did not run, and the model reads how to record evidence
await call(check); // the check's result is recorded as an observation of check_health supporting the claim
console.log('observed healthy:', await call(restart)); // MAY_ACT: restarted server01
