import { gate, observe } from '@ewp/ai-sdk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { tool } from 'ai';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // any EvidenceStore: SqliteEvidenceStore, PostgresEvidenceStore, ...
const claim = 'server01 is healthy';
const inputSchema = z.object({ server: z.string() });
const healthCheck = observe(tool({ inputSchema, execute: async ({ server }) => ({ server, ok: true }) }), {
  name: 'health_check',
  claim,
  supports: (r) => r.ok,
  store,
});
const restart = gate(tool({ inputSchema, execute: async ({ server }) => `restarted ${server}` }), { name: 'restart', claim, store });
// generateText({ model, tools: { health_check: healthCheck, restart }, prompt }) calls them like this:
const call = (t, toolCallId) => t.execute({ server: 'server01' }, { toolCallId, messages: [] });
console.log((await call(restart, 'c1')).ewpGate); // DENY: nothing observed yet, the restart did not run
await call(healthCheck, 'c2'); // its result is recorded: a tool observation supporting the claim
console.log(await call(restart, 'c3')); // restarted server01
