// Offline: the warrant gate as LangChain v1 agent middleware. A real createAgent with langchain's
// FakeToolCallingModel calls `restart` and `status`; warrantMiddleware decides every `restart` call on
// the stored evidence (status passes). Run: pnpm --filter @ewp/example-langchain middleware
import { warrantMiddleware } from '@ewp/langchain/middleware';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { z } from 'zod';

const store = new MemoryEvidenceStore();
// P-win: "server01 runs Windows Server 2022", observed by a WinRM tool call on 2026-09-21, fresh for 7 days.
const source = {
  source_id: 'winrm',
  lineage_id: 'L-obs',
  origin_type: 'tool',
  origin_locator: 'winrm://server01',
  snapshot_id: 'snap:winrm',
  content_hash: 'sha256:winrm',
  observed_at: '2026-09-21T18:31:00Z',
  extractor_id: null,
  parent_source_id: null,
};
await store.put({
  proposition_id: 'P-win',
  freshness_policy_seconds: 604800,
  assertions: [
    { assertion_id: 'a1', text: 'server01 runs Windows Server 2022', asserted_by: 'agent', assertion_confidence: 0.9, source, asserted_at: source.observed_at },
  ],
  checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source, observed_at: source.observed_at, result: 'supports' }],
});
const restart = tool(async ({ server }) => `restarted ${server}`, {
  name: 'restart',
  description: 'Restart a server',
  schema: z.object({ server: z.string() }),
});
const status = tool(async ({ server }) => `${server} is up`, { name: 'status', description: 'Server status', schema: z.object({ server: z.string() }) });

// A model gives every tool call its own id; the gate runs one call id once.
let calls = 0;
const decided = [];
async function run(label, at, risk, answer) {
  const gate = warrantMiddleware({
    restart: { proposition: 'P-win', action: { id: 'restart', kind: 'restart', risk, reversible: true }, store, now: () => new Date(at) },
  });
  const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'restart', args: { server: 'server01' }, id: `c${++calls}` }], []] });
  const agent = createAgent({ model, tools: [restart, status], middleware: [gate], checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: label } };
  let out = await agent.invoke({ messages: [{ role: 'user', content: 'restart server01' }] }, config);
  const paused = out.__interrupt__ !== undefined;
  if (paused) {
    console.log(`${label}: paused for a human (${out.__interrupt__[0].value.reason}); answered ${answer}`);
    out = await agent.invoke(new Command({ resume: { approved: answer } }), config);
  }
  const reply = out.messages.find((m) => m.getType() === 'tool')?.content;
  decided.push(
    `${label} → ${paused ? `REQUIRE_CONFIRMATION, answered ${answer}, ` : ''}${String(reply).startsWith('restarted') ? 'restarted' : (JSON.parse(reply).ewpGate ?? reply)}`,
  );
  console.log(`${label}: ${String(reply).slice(0, 120)}`);
}

await run('fresh check, high risk', '2026-09-21T21:00:00Z', 'high');
await run('stale check, medium risk', '2026-10-05T00:00:00Z', 'medium', true);
await run('stale check, high risk', '2026-10-05T00:00:00Z', 'high');
console.log(`decided: ${decided.join('; ')}`);
