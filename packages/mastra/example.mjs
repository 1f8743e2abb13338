import { MemoryEvidenceStore } from '@ewp/ledger';
import { gate, observe } from '@ewp/mastra';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

const store = new MemoryEvidenceStore(); // any EvidenceStore: SqliteEvidenceStore, PostgresEvidenceStore, ...
const claim = 'server01 is healthy';
const inputSchema = z.object({ server: z.string() });
const healthCheck = observe(
  createTool({ id: 'health_check', description: 'Check a server', inputSchema, execute: async ({ server }) => ({ server, ok: true }) }),
  { claim, supports: (r) => r.ok, store },
);
const restart = gate(createTool({ id: 'restart', description: 'Restart a server', inputSchema, execute: async ({ server }) => `restarted ${server}` }), {
  claim,
  store,
});
// new Agent({ ..., tools: { health_check: healthCheck, restart }, hooks: warrantToolHooks({ restart: gateOptions }) }) calls them like this:
const call = (t, toolCallId) => t.execute({ server: 'server01' }, { agent: { toolCallId } });
console.log((await call(restart, 'c1')).ewpGate); // DENY: nothing observed yet, the restart did not run
await call(healthCheck, 'c2'); // its result is recorded: a tool observation supporting the claim
console.log(await call(restart, 'c3')); // restarted server01
