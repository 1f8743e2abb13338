// Decisions that last, offline, over a SQLite ledger in a temporary directory: an agent acts on a
// verified fact; the check behind the fact is retracted; the next run is held until the fact is
// re-evaluated; the audit chain shows the whole story. Exits 1 if any step does not go as told.
// Run: pnpm --filter @ewp/example-decisions-that-last start
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { listDecisions, planLedgerRecovery, recordRetraction, reevaluate, runGuarded, verifyDecision } from '@ewp/tools';

const dir = mkdtempSync(join(tmpdir(), 'ewp-decisions-example-'));
const store = new SqliteEvidenceStore(join(dir, 'ewp.sqlite'));
const say = (...line) => console.log(...line);
let failures = 0;
const expectThat = (ok, what) => {
  if (!ok) {
    failures += 1;
    console.error(`UNEXPECTED: ${what}`);
  }
};

const source = (id, hash) => ({
  source_id: id,
  lineage_id: `L-${id}`,
  origin_type: 'tool',
  origin_locator: `winrm://server01/${id}`,
  snapshot_id: `snap:${id}`,
  content_hash: `sha256:${hash}`,
  observed_at: '2026-12-01T09:00:00Z',
  extractor_id: null,
  parent_source_id: null,
});
const check = (id, at) => ({
  check_id: id,
  method: 'tool_observation',
  scope: 'server01',
  observed_at: at,
  result: 'supports',
  source: source(id, id),
  subjects: [],
});
/** "server01 runs Windows Server 2022", asserted from a probe and verified by an external check. */
const fact = (viewId, checks) => ({
  proposition_id: 'P-server01-os',
  view_id: viewId,
  retrieval_scope: 'complete',
  degraded: false,
  freshness_policy_seconds: 604800,
  subjects: [],
  omitted_sources: [],
  assertions: [
    {
      assertion_id: 'a1',
      proposition_id: 'P-server01-os',
      text: 'server01 runs Windows Server 2022',
      asserted_by: 'agent',
      assertion_confidence: 0.9,
      asserted_at: '2026-12-01T09:00:00Z',
      source: source('probe', 'probe'),
    },
  ],
  evidence: [
    {
      evidence_id: 'e1',
      proposition_id: 'P-server01-os',
      polarity: 'supports',
      content: 'Get-ComputerInfo: WindowsProductName = Windows Server 2022',
      observed_at: '2026-12-01T09:00:00Z',
      source: source('probe', 'probe'),
    },
  ],
  checks,
  conflicts: [],
  lineage: [],
  adapter_meta: {},
});

let clock = Date.parse('2026-12-01T10:00:00Z');
const now = () => {
  clock += 60_000;
  return new Date(clock);
};
const patch = { id: 'patch-server01', kind: 'install_update', risk: 'high', reversible: false };
const gate = { store, proposition: 'P-server01-os', action: patch, now, record: { gate: 'example' } };
const run = (n) =>
  runGuarded(gate, { kb: 'KB-2022-12' }, { gate: 'example', tool: 'install_update', callId: undefined }, (input) => {
    say(`  run ${n}: installing ${input.kb} on server01`);
    return 'installed';
  });

// 1. The fact is verified; the agent's first run acts on it.
await store.put(fact('v1', [check('k1', '2026-12-01T09:30:00Z')]));
const first = await run(1);
say(`run 1: ${first.status}, decision ${first.decision.decision} (rule ${first.decision.rule?.id}), recorded as ${first.decisionId}`);
expectThat(first.status === 'executed', 'run 1 executes');

// 2. The verifier retracts its check: the probe had read another host.
await recordRetraction(store, { proposition_id: 'P-server01-os', records: ['check:k1'], note: 'the probe answered for server02' });
say('the verifier retracted check:k1');

// 3. The next run is held: mayAct alone would still say MAY_ACT, the recovery gate says DENY.
const second = await run(2);
say(`run 2: ${second.status}, mayAct ${second.decision.record.may_act}, decision ${second.decision.decision}`);
say(`  ${second.reason}`);
expectThat(second.status === 'refused' && second.decision.record.may_act === 'MAY_ACT', 'run 2 is held although mayAct alone permits it');
const plan = await planLedgerRecovery(store, { record: true });
say(`recovery plan ${plan.plan_id}: changed ${JSON.stringify(plan.changed)}, held ${plan.held.map((h) => h.action_id).join(', ')}`);

// 4. Re-evaluating the same snapshot does not lift it: the retracted check is still in it.
const stillBlocked = await reevaluate(store, 'P-server01-os', { evaluatedAt: now().toISOString() });
say(`re-evaluation of ${stillBlocked.view_id}: ${stillBlocked.action} ${JSON.stringify(stillBlocked.changes)}`);
expectThat(stillBlocked.action === 'BLOCK', 'the snapshot holding the retracted check does not re-evaluate');
const third = await run(3);
expectThat(third.status === 'refused', 'run 3 is still held');

// 5. The host is probed again, correctly; the new snapshot is re-evaluated; the agent may act again.
await store.put(fact('v2', [check('k2', '2026-12-01T10:04:30Z')]));
const lifted = await reevaluate(store, 'P-server01-os', { evaluatedAt: now().toISOString() });
say(`re-evaluation of ${lifted.view_id}: ${lifted.action}`);
const fourth = await run(4);
say(`run 4: ${fourth.status}, decision ${fourth.decision.decision}`);
expectThat(fourth.status === 'executed', 'run 4 executes after re-evaluation');

// 6. The audit: every step is an entry in the ledger's one hash chain.
say('\naudit chain (entries, in chain order):');
for (const e of await store.readEntries({ subject: 'P-server01-os', limit: 1000 })) {
  const b = e.body;
  const what =
    e.kind === 'decision'
      ? `${b.record.action.action_id} ${b.record.decision}${b.record.recovery && b.record.recovery.decision !== 'MAY_ACT' ? ' (held)' : ''}`
      : e.kind === 'decision.outcome'
        ? b.status
        : e.kind === 'invalidation'
          ? `${b.records.join(', ')} ${b.reason}`
          : e.kind === 'warrant.evaluated'
            ? `${b.view_id} ${b.action}`
            : e.kind === 'recovery.plan'
              ? `held ${b.held.length}`
              : '';
  say(`  #${e.chain_index}\t${e.kind.padEnd(18)}\t${what}`);
}
const chain = await store.verifyChain();
say(`chain: ${chain.ok ? `OK, ${chain.length} events` : `FAIL at ${chain.firstBadIndex} (${chain.reason})`}`);
expectThat(chain.ok, 'the chain verifies');
for (const d of await listDecisions(store)) {
  const v = await verifyDecision(store, d.decision_id);
  expectThat(v.ok, `decision ${d.decision_id} verifies offline (${v.status})`);
}
say('every decision verifies offline from the ledger alone');

say(
  `decided: run 1 ${first.decision.decision} (executed), after the retraction run 2 ${second.decision.decision} (held), after re-evaluation run 4 ${fourth.decision.decision} (${fourth.status})`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
process.exit(failures === 0 ? 0 : 1);
