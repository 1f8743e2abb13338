// Offline: the EWP tools in a real LangChain createAgent; a health check whose results land on a claim
// (observe) and a restart gated on it (gate); and a gate that pauses the graph for a human (LangGraph
// interrupt) and decides again on resume. The model is LangChain's FakeToolCallingModel, scripted to call the tools.
import { ewpTools, gate, observe } from '@ewp/langchain';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { z } from 'zod';

let now = new Date('2026-09-23T12:00:00Z');
const store = new MemoryEvidenceStore();
const src = {
  source_id: 'winrm',
  lineage_id: 'L-winrm',
  origin_type: 'tool',
  origin_locator: 'winrm://server01',
  snapshot_id: 's1',
  content_hash: 'sha256:1',
  observed_at: '2026-09-23T08:00:00Z',
  extractor_id: null,
  parent_source_id: null,
};
const view = {
  proposition_id: 'P-win',
  freshness_policy_seconds: 604800,
  assertions: [
    {
      assertion_id: 'a1',
      text: 'server01 runs Windows Server 2022',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      source: src,
      asserted_at: src.observed_at,
    },
  ],
  checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: src, observed_at: src.observed_at, result: 'supports' }],
};

// 1. The agent (ingest role) stores the evidence, then reads the memory context.
const tools = ewpTools({ store, ingest: true, now: () => now });
const model = new FakeToolCallingModel({
  toolCalls: [
    [{ name: 'ewp_evidence_view_put', args: { view, ingest_attestation: true }, id: 'c1' }],
    [{ name: 'ewp_memory_context', args: { proposition_id: 'P-win' }, id: 'c2' }],
    [],
  ],
});
const agent = createAgent({ model, tools });
const out = await agent.invoke({ messages: [{ role: 'user', content: 'what OS does server01 run?' }] });
for (const m of out.messages.filter((m) => m.getType() === 'tool')) console.log(`1. ${m.name} ->`, String(m.content).slice(0, 120));

// 2. A health check observed by the binding: its result lands on the claim "server01 is healthy", and
// the restart gated on that claim runs only after it (a model that skips the check reads why not).
const schema = z.object({ server: z.string() });
const claim = ({ server }) => `${server} is healthy`;
const check = observe(
  tool(async ({ server }) => ({ server, status: 'ok' }), { name: 'check_health', description: 'Check a server', schema }),
  {
    store,
    claim,
    supports: (result) => result.status === 'ok',
  },
);
const restart = gate(
  tool(async ({ server }) => `restarted ${server}`, { name: 'restart', description: 'Restart a server', schema }),
  {
    store,
    claim,
    action: { risk: 'low' },
  },
);
let callNo = 0;
const ask = async (...names) => {
  const script = new FakeToolCallingModel({ toolCalls: [...names.map((name) => [{ name, args: { server: 'server01' }, id: `h${++callNo}` }]), []] });
  const done = await createAgent({ model: script, tools: [check, restart] }).invoke({ messages: [{ role: 'user', content: 'restart server01' }] });
  return String(done.messages.filter((m) => m.getType() === 'tool').at(-1)?.content);
};
const refused = JSON.parse(await ask('restart'));
console.log('2. restart without a check ->', refused.ewpGate, '|', refused.reason.slice(0, 90));
console.log('   check, then restart ->', await ask('check_health', 'restart'));

// 3. Two weeks later the check is stale: the gated patch tool pauses the graph for a human.
now = new Date('2026-10-07T12:00:00Z');
const ran = [];
const patch = tool(
  async ({ server }) => {
    ran.push(server);
    return `patched ${server}`;
  },
  {
    name: 'patch',
    description: 'Install the security patch on a server',
    schema: z.object({ server: z.string() }),
  },
);
const gated = gate(patch, {
  proposition: 'P-win',
  action: { id: 'patch', kind: 'patch', risk: 'medium', reversible: true },
  store,
  now: () => now,
});
const gatedAgent = createAgent({
  model: new FakeToolCallingModel({ toolCalls: [[{ name: 'patch', args: { server: 'server01' }, id: 'p1' }], []] }),
  tools: [gated],
  checkpointer: new MemorySaver(),
});
const config = { configurable: { thread_id: 'patch-1' } };
const paused = await gatedAgent.invoke({ messages: [{ role: 'user', content: 'patch server01' }] }, config);
console.log(
  '3. paused for a human:',
  paused.__interrupt__?.[0]?.value?.ewpGate,
  '| currency',
  paused.__interrupt__?.[0]?.value?.currency,
  '| ran:',
  ran.length > 0,
);
await gatedAgent.invoke(new Command({ resume: { approved: true } }), config);
console.log('   approved on resume, decided again -> ran:', ran.includes('server01'));
console.log(
  `decided: restart ${refused.ewpGate} before the check and ran after it; the patch ${paused.__interrupt__?.[0]?.value?.ewpGate ?? 'ran'} on stale evidence, paused for a human, ran after approval: ${ran.includes('server01')}`,
);
