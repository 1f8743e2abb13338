// Offline Google ADK walkthrough: tools gated by the warrant layer in ADK's before-tool callback, the
// verdict in session state, a consequential step that reads it, a tool result recorded as that tool's
// observation of a claim, and the same with the per-tool wrappers gate() and observe(). The model is a
// scripted BaseLlm; no network. Run: pnpm --filter @ewp/example-adk start
import { consequentialActionAllowed, ewpTools, gate, observe, warrantCallbacks } from '@ewp/adk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { claimProposition, listDecisions } from '@ewp/tools';
import { BaseLlm, FunctionTool, getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';

const now = () => new Date('2026-09-23T12:00:00Z');
const store = new MemoryEvidenceStore();
const src = (id, at) => ({
  source_id: id,
  lineage_id: `L-${id}`,
  origin_type: 'tool',
  origin_locator: `winrm://server01/${id}`,
  snapshot_id: id,
  content_hash: `sha256:${id}`,
  observed_at: at,
  extractor_id: null,
  parent_source_id: null,
});

// The ingest side records a tool-verified view through the EWP tools (trusted origins need the attestation).
const putTool = ewpTools({ store, ingest: true, now }).find((t) => t.name === 'ewp_evidence_view_put');
const observed = '2026-09-23T08:00:00Z';
const put = await putTool.runAsync({
  args: {
    ingest_attestation: true,
    view: {
      proposition_id: 'P-win',
      freshness_policy_seconds: 604800,
      assertions: [
        {
          assertion_id: 'a1',
          text: 'server01 runs Windows Server 2022',
          asserted_by: 'agent',
          assertion_confidence: 0.9,
          source: src('w1', observed),
          asserted_at: observed,
        },
      ],
      checks: [{ check_id: 'k1', method: 'tool_observation', scope: 'server01', source: src('w1', observed), observed_at: observed, result: 'supports' }],
    },
  },
});
console.log('stored:', JSON.stringify(put));

/** An offline model: answers the scripted turns in order. Use a Gemini model name in your agent. */
class ScriptedLlm extends BaseLlm {
  constructor(turns) {
    super({ model: 'scripted' });
    this.turns = turns;
  }
  async *generateContentAsync() {
    yield { content: { role: 'model', parts: [this.turns.shift() ?? { text: 'done' }] } };
  }
  async connect() {
    throw new Error('offline');
  }
}
const call = (name, args, id) => ({ functionCall: { name, args, id } });

const patched = [];
const patch = new FunctionTool({
  name: 'patch',
  description: 'Install the Windows Server 2022 security patch on a server',
  parameters: z.object({ server: z.string() }),
  execute: async ({ server }) => {
    patched.push(server);
    return { patched: server };
  },
});
const wipe = new FunctionTool({
  name: 'wipe',
  description: 'Wipe a server',
  parameters: z.object({ server: z.string() }),
  execute: async ({ server }) => ({ wiped: server }),
});
const readSchedule = new FunctionTool({
  name: 'read_schedule',
  description: 'Read when the backup job starts',
  parameters: z.object({ job: z.string() }),
  execute: async ({ job }) => ({ job, starts_at: '06:00' }),
});

const callbacks = warrantCallbacks({
  gates: {
    patch: { proposition: 'P-win', action: { kind: 'patch', risk: 'medium', reversible: true }, store, now },
    // Nothing is stored for "server01 is retired": nothing warrants wiping it.
    wipe: { claim: 'server01 is retired', action: { kind: 'wipe', risk: 'high', reversible: false }, store, now },
  },
  // The schedule's result lands on the claim "the backup starts at 06:00", as an observation of read_schedule.
  observe: { read_schedule: { store, claim: 'the backup starts at 06:00', supports: (result) => result.starts_at === '06:00' } },
});
const model = new ScriptedLlm([
  call('read_schedule', { job: 'backup' }, 'fc-1'),
  call('patch', { server: 'server01' }, 'fc-2'),
  call('wipe', { server: 'server01' }, 'fc-3'),
]);
const agent = new LlmAgent({ name: 'ops', model, tools: [readSchedule, patch, wipe], ...callbacks });
const runner = new InMemoryRunner({ agent, appName: 'ops' });
const session = await runner.sessionService.createSession({ appName: 'ops', userId: 'u1' });

// One run: the schedule is read (an observation of read_schedule), the patch runs (MAY_ACT), the wipe is refused (DENY).
let invocationId = '';
for await (const event of runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'Patch server01.' }] } })) {
  invocationId = event.invocationId;
  for (const r of getFunctionResponses(event))
    console.log(`${r.name}:`, JSON.stringify(r.response.ewpGate ? { ewpGate: r.response.ewpGate, reason: r.response.reason } : r.response));
}
console.log('patched:', patched);

// The last verdict in session state is the wipe's BLOCK: a consequential step reading it does not run.
const state = (await runner.sessionService.getSession({ appName: 'ops', userId: 'u1', sessionId: session.id })).state;
const check = consequentialActionAllowed(state, { invocationId, now });
console.log('consequential action allowed:', check.allowed, check.allowed ? '' : `(${check.code}: ${check.reason})`);

const decisions = await listDecisions(store);
for (const d of decisions) console.log('decision:', d.record.gate, d.record.call_id, d.record.action.action_id, d.record.decision);
// The claim's snapshot holds only observations, each of source tool:<name>; nobody asserts the claim.
const schedule = await store.get(claimProposition('the backup starts at 06:00'));
for (const e of schedule.evidence) console.log('observation:', e.polarity, e.source.origin_locator, e.content);

// The same without callbacks: observe() and gate() wrap one tool each. A restart on the claim
// "server01 is healthy" is refused until the observed health check supports it.
const parameters = z.object({ server: z.string() });
const claim = ({ server }) => `${server} is healthy`;
const health = observe(
  new FunctionTool({ name: 'check_health', description: 'Check a server', parameters, execute: async ({ server }) => ({ server, status: 'ok' }) }),
  {
    store,
    claim,
    supports: (result) => result.status === 'ok',
  },
);
const restart = gate(
  new FunctionTool({ name: 'restart', description: 'Restart a server', parameters, execute: async ({ server }) => ({ restarted: server }) }),
  {
    store,
    claim,
    action: { risk: 'low' },
  },
);
const ask = async (...names) => {
  const turns = names.map((name, i) => call(name, { server: 'server01' }, `w-${i}`));
  const wrapped = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model: new ScriptedLlm(turns), tools: [health, restart] }), appName: 'ops' });
  const responses = [];
  for await (const event of wrapped.runEphemeral({ userId: 'u1', newMessage: { role: 'user', parts: [{ text: 'Restart server01.' }] } }))
    responses.push(...getFunctionResponses(event));
  return responses.at(-1)?.response;
};
const before = await ask('restart');
console.log('restart without a check:', before.ewpGate, '|', before.reason.slice(0, 80));
const after = await ask('check_health', 'restart');
console.log('check, then restart:', JSON.stringify(after));
if (
  patched.length !== 1 ||
  check.allowed ||
  schedule.evidence[0]?.source.origin_locator !== 'tool:read_schedule' ||
  before.ewpGate !== 'DENY' ||
  after.restarted !== 'server01'
)
  process.exit(1);
console.log(
  `decided: ${decisions.map((d) => `${d.record.action.kind} ${d.record.decision}`).join(', ')}; the consequential step after the run ${check.allowed ? 'allowed' : 'blocked'}; the tool result stored as an observation of ${schedule.evidence[0].source.origin_locator} on its claim; restart ${before.ewpGate} before the observed check, run after it`,
);
