import { MemoryEvidenceStore } from '@ewp/ledger';
import { gate, observe } from '@ewp/openai-agents';
import { RunContext, tool } from '@openai/agents-core';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // any EvidenceStore: SqliteEvidenceStore, PostgresEvidenceStore, ...
const claim = 'server01 is healthy';
const parameters = z.object({ server: z.string() });
const healthCheck = observe(tool({ name: 'health_check', description: 'Check a server', parameters, execute: async ({ server }) => ({ server, ok: true }) }), {
  claim,
  supports: (r) => r.ok,
  store,
});
const restart = gate(tool({ name: 'restart', description: 'Restart a server', parameters, execute: async ({ server }) => `restarted ${server}` }), {
  claim,
  store,
});
// run(new Agent({ name: 'ops', tools: [healthCheck, restart] }), prompt) invokes them like this:
const call = (t, callId) => t.invoke(new RunContext(), '{"server":"server01"}', { toolCall: { callId } });
console.log(JSON.parse(await call(restart, 'c1')).ewpGate); // DENY: nothing observed yet, the restart did not run
await call(healthCheck, 'c2'); // its result is recorded: a tool observation supporting the claim
console.log(await call(restart, 'c3')); // restarted server01
