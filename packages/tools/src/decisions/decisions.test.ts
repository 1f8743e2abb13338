import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { Ed25519Signer } from '@ewp/receipts';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { type GateCall, decideGate } from '../gate-decision.js';
import type { GateAction } from '../gate-options.js';
import { DecisionError } from './decision-error.js';
import { decisionHistory, listDecisions, readDecision, verifyDecision } from './decision-store.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { recordKeyState } from './key-states.js';
import { planLedgerRecovery } from './ledger-recovery-plan.js';
import { recordRetraction, reevaluate } from './reevaluation.js';
import { runDecision, runGuarded } from './run-guarded.js';

const verified = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url)), 'utf8'),
) as Record<string, unknown> & { checks: Record<string, unknown>[] };
/** P-win, verified by check k1 (ACCEPTED, CURRENT at T). */
const T = new Date('2026-09-21T21:00:00Z');
/** A direct call (no binding): the records name the `library` gate. */
const call: GateCall = { gate: 'library', tool: 'restart', callId: undefined };
const later = (minutes: number) => () => new Date(T.getTime() + minutes * 60_000);
const restart: GateAction = { id: 'restart-server01', kind: 'restart', risk: 'high', reversible: false };

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function sqlitePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ewp-decisions-'));
  dirs.push(dir);
  return join(dir, 'ledger.sqlite');
}

const stores: [string, () => EvidenceStore][] = [
  ['memory', () => new MemoryEvidenceStore()],
  ['sqlite file', () => new SqliteEvidenceStore(sqlitePath())],
];

describe.each(stores)('decisions that last, on the %s store', (_name, open) => {
  it('records every gate decision in the ledger chain, looks it up by id, verifies it from the ledger alone', async () => {
    const store = open();
    await store.put(verified);
    const d = await decideGate({ store, proposition: 'P-win', action: restart, now: later(0), record: { gate: 'test' } }, {}, call);
    expect(d.decision).toBe('MAY_ACT');
    expect(d.decisionId).toMatch(/^dec_[0-9a-f]{32}$/);
    const stored = await readDecision(store, d.decisionId as string);
    expect(stored.record).toMatchObject({
      gate: 'test',
      action: { action_id: 'restart-server01', kind: 'restart', risk: 'high', reversible: false },
      decision: 'MAY_ACT',
      rule: 'high.warranted',
      risk_policy: { policy_id: 'action-v0.1', version: '0.1.0' },
      evaluated_at: '2026-09-21T21:00:00.000Z',
      basis: [{ proposition_id: 'P-win', view_id: 'v-ver' }],
      recovery: null,
    });
    expect(stored.record.consulted[0]?.receipt_digest).toMatch(/^[0-9a-f]{64}$/);
    const [entry] = await store.readEntries({ kind: 'decision', subject: 'P-win' });
    expect(entry?.id).toBe(d.decisionId);
    expect(await verifyDecision(store, d.decisionId as string)).toMatchObject({ ok: true, status: 'VERIFIED' });
    expect((await store.verifyChain()).ok).toBe(true);
    await expect(readDecision(store, 'dec_nope')).rejects.toMatchObject({ code: 'EWP_REFUSE_DECISION_UNKNOWN' });
    // No stored evidence: DENY, and still recorded.
    const none = await decideGate({ store, proposition: 'P-none', action: restart, now: later(0) }, {}, call);
    expect(none).toMatchObject({ decision: 'DENY', rule: undefined });
    expect((await readDecision(store, none.decisionId as string)).record).toMatchObject({ gate: 'library', rule: 'no_evidence', unsupported: ['P-none'] });
    await store.close();
  });

  it('a retracted check holds the next run until re-evaluation; the audit shows the story', async () => {
    const store = open();
    await store.put(verified);
    const run = async (minutes: number) => {
      let ran = 0;
      const r = await runGuarded({ store, proposition: 'P-win', action: restart, now: later(minutes) }, {}, call, () => ++ran);
      return { r, ran };
    };
    const first = await run(0);
    expect(first).toMatchObject({ ran: 1, r: { status: 'executed', result: 1 } });
    // The verifier retracts its check.
    await recordRetraction(store, { proposition_id: 'P-win', records: ['check:k1'], note: 'winrm probe was misconfigured' });
    const held = await run(5);
    expect(held.ran).toBe(0);
    expect(held.r).toMatchObject({ status: 'refused', refusal: { ewpGate: 'DENY' } });
    expect(held.r.decision?.record.may_act).toBe('MAY_ACT'); // mayAct alone would still act
    expect(held.r.decision?.recovery).toMatchObject({ decision: 'DENY', invalidated: { 'P-win': 'evidence_refuted' }, requirements: ['P-win'] });
    expect(held.r.status === 'refused' && held.r.reason).toMatch(/re-evaluated/);
    // Held decisions do not become the baseline: a retry is held too.
    expect((await run(6)).ran).toBe(0);
    // Re-evaluating the same snapshot does not lift it: the retracted check is still in it.
    expect(await reevaluate(store, 'P-win', { evaluatedAt: later(7)().toISOString() })).toMatchObject({ action: 'BLOCK', changes: { 'check:k1': 'REFUTED' } });
    expect((await run(8)).ran).toBe(0);
    // A new snapshot without the check, re-evaluated: the hold lifts, and mayAct decides on the new evidence.
    await store.put({ ...verified, view_id: 'v-2', checks: [] });
    expect((await run(9)).r.decision?.recovery).toMatchObject({ decision: 'DENY', invalidated: { 'P-win': 'evidence_missing' } });
    expect(await reevaluate(store, 'P-win', { evaluatedAt: later(10)().toISOString() })).toMatchObject({ action: 'ALLOW', view_id: 'v-2' });
    const after = await run(11);
    expect(after.r.decision?.recovery).toMatchObject({ decision: 'MAY_ACT', invalidated: {}, requirements: [] });
    expect(after.r.decision?.decision).toBe(after.r.decision?.record.may_act);
    // The audit: every step is an entry in the one chain, and the chain verifies.
    const kinds = (await store.readEntries({ subject: 'P-win', limit: 100 })).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'decision')).toHaveLength(6);
    expect(kinds).toEqual(expect.arrayContaining(['decision.execution', 'decision.outcome', 'invalidation', 'warrant.evaluated']));
    expect((await store.verifyChain()).ok).toBe(true);
    for (const d of await listDecisions(store, { proposition: 'P-win' })) expect((await verifyDecision(store, d.decision_id)).ok).toBe(true);
    await store.close();
  });

  it('a decision authorizes one execution, durably; a confirmation is recorded and re-checked', async () => {
    const store = open();
    await store.put(verified);
    const first = await runGuarded({ store, proposition: 'P-win', action: restart, now: later(0) }, { n: 1 }, call, () => 'done');
    expect(first.status).toBe('executed');
    const id = first.decisionId as string;
    let again = 0;
    await expect(runDecision(store, id, { n: 1 }, () => ++again)).rejects.toMatchObject({ code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' });
    await expect(runDecision(store, id, { n: 2 }, () => ++again)).rejects.toMatchObject({ code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' });
    expect(again).toBe(0);
    expect(await decisionHistory(store, id)).toMatchObject({
      execution: { kind: 'decision.execution' },
      outcome: { body: { status: 'succeeded' } },
      confirmation: null,
    });
    // A failing action is recorded as failed, and rethrown.
    const failing = runGuarded({ store, proposition: 'P-win', action: { ...restart, id: 'other' }, now: later(1) }, {}, call, () => {
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    // REQUIRE_CONFIRMATION (degraded retrieval): runs only on a recorded confirmation.
    const degraded = { store, proposition: 'P-win', action: { id: 'deg', kind: 'restart', risk: 'medium' as const, reversible: true }, now: later(2) };
    await store.put({ ...verified, view_id: 'v-deg1', degraded: true });
    const unconfirmed = await runGuarded(degraded, {}, call, () => 'ran');
    expect(unconfirmed).toMatchObject({ status: 'refused', refusal: { ewpGate: 'REQUIRE_CONFIRMATION' } });
    const confirmed = await runGuarded({ ...degraded, confirm: () => ({ confirmedBy: 'alice' }) }, {}, call, () => 'ran');
    expect(confirmed).toMatchObject({ status: 'executed', result: 'ran' });
    expect((await decisionHistory(store, confirmed.decisionId as string)).confirmation).toMatchObject({ body: { confirmed_by: 'alice' } });
    // Evidence that changes while the human is asked: the confirmation no longer suffices.
    const raced = await runGuarded(
      {
        ...degraded,
        confirm: async () => {
          await recordRetraction(store, { proposition_id: 'P-win', records: ['check:k1'] });
          return { confirmedBy: 'bob' };
        },
      },
      {},
      call,
      () => 'ran',
    );
    expect(raced).toMatchObject({ status: 'refused', refusal: { ewpGate: 'DENY' } });
    expect(raced.status === 'refused' && raced.reason).toMatch(/evidence_refuted/);
    await store.close();
  });

  it('plans recovery over the ledger: changed propositions, what derives from them, which recorded actions are held', async () => {
    const store = open();
    await store.put(verified);
    const derived = {
      ...verified,
      proposition_id: 'P-app',
      view_id: 'v-app',
      assertions: (verified.assertions as Record<string, unknown>[]).map((a) => ({ ...a, proposition_id: 'P-app', assertion_id: 'a-app' })),
      evidence: [],
      checks: [],
      lineage: [{ from_id: 'P-app', to_id: 'P-win', kind: 'derived_from' }],
    };
    await store.put(derived);
    await store.put({ ...verified, proposition_id: 'P-other', view_id: 'v-other', assertions: [], evidence: [] });
    const onApp = await decideGate({ store, proposition: 'P-app', action: { id: 'a1', kind: 'x' }, now: later(0) }, {}, call);
    expect((await readDecision(store, onApp.decisionId as string)).record.basis.map((b) => b.proposition_id)).toEqual(['P-app', 'P-win']);
    await decideGate({ store, proposition: 'P-other', action: { id: 'a2', kind: 'x' }, now: later(0) }, {}, call);
    expect(await planLedgerRecovery(store)).toMatchObject({ decisions: 2, changed: {}, held: [], clear: 2 });
    await store.put({ ...verified, view_id: 'v-2', checks: [] });
    const plan = await planLedgerRecovery(store, { record: true });
    expect(plan).toMatchObject({
      decisions: 2,
      clear: 1,
      changed: { 'P-win': 'evidence_missing' },
      reevaluate: ['P-win', 'P-app'],
      held: [{ decision_id: onApp.decisionId, action_id: 'a1', gate: 'DENY', requirements: ['P-win', 'P-app'] }],
    });
    expect(plan.plan_id).toMatch(/^plan_/);
    expect((await store.readEntries({ kind: DECISION_ENTRY_KINDS.plan })).map((e) => e.id)).toEqual([plan.plan_id]);
    // The unrelated action's later use is not held; the one on the derived proposition is, until both are re-evaluated.
    expect((await decideGate({ store, proposition: 'P-other', action: { id: 'a2', kind: 'x' }, now: later(1) }, {}, call)).recovery?.decision).toBe('MAY_ACT');
    const app = () => decideGate({ store, proposition: 'P-app', action: { id: 'a1', kind: 'x' }, now: later(2) }, {}, call);
    await reevaluate(store, 'P-win');
    expect((await app()).recovery).toMatchObject({ decision: 'DENY', requirements: ['P-app'] });
    await reevaluate(store, 'P-app');
    expect((await app()).recovery?.decision).toBe('MAY_ACT');
    // Since a chain index after everything: nothing to examine.
    const [last] = (await store.readEntries({ kind: 'decision', limit: 100000 })).slice(-1);
    expect(await planLedgerRecovery(store, { since: last?.chain_index })).toMatchObject({ decisions: 0 });
    await expect(planLedgerRecovery(store, { since: 'yesterday' })).rejects.toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENTS' });
    await store.close();
  });

  it('signs decisions; the keys and their state changes are ledger entries', async () => {
    const store = open();
    await store.put(verified);
    const signer = new Ed25519Signer('gate-key', '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    await recordKeyState(store, { key_id: 'gate-key', public_key_hex: signer.publicKeyHex(), state: 'ACTIVE', at: '2026-09-01T00:00:00Z' });
    const d = await decideGate({ store, proposition: 'P-win', action: restart, now: later(0), record: { signer } }, {}, call);
    expect((await readDecision(store, d.decisionId as string)).signature).toMatchObject({ algorithm: 'Ed25519', key_id: 'gate-key' });
    expect(await verifyDecision(store, d.decisionId as string)).toMatchObject({ ok: true, status: 'VERIFIED' });
    await recordKeyState(store, { key_id: 'gate-key', public_key_hex: signer.publicKeyHex(), state: 'REVOKED', at: '2026-10-01T00:00:00Z' });
    expect(await verifyDecision(store, d.decisionId as string)).toMatchObject({ ok: false, status: 'REVOKED_KEY' });
    await expect(recordKeyState(store, { key_id: 'k', public_key_hex: 'XYZ', state: 'ACTIVE' })).rejects.toMatchObject({
      code: 'EWP_REFUSE_INVALID_ARGUMENTS',
      path: '$.public_key_hex',
    });
    await expect(recordRetraction(store, { proposition_id: 'P-win', records: ['k1'] })).rejects.toMatchObject({ path: '$.records[0]' });
    // Nothing no snapshot holds is retracted (and nothing recorded): a typo of the record or of the proposition.
    const retractions = (await store.readEntries({ kind: 'invalidation' })).length;
    await expect(recordRetraction(store, { proposition_id: 'P-win', records: ['check:k1', 'check:K-WRONG'] })).rejects.toMatchObject({
      code: 'EWP_REFUSE_INVALID_ARGUMENTS',
      path: '$.records[1]',
    });
    await expect(recordRetraction(store, { proposition_id: 'P-nope', records: ['check:k1'] })).rejects.toMatchObject({ path: '$.proposition_id' });
    expect((await store.readEntries({ kind: 'invalidation' })).length).toBe(retractions);
    await store.close();
  });
});

describe('fail closed', () => {
  it('a gate whose ledger cannot record does not decide, and a guarded run does not run', async () => {
    const path = sqlitePath();
    const writer = new SqliteEvidenceStore(path);
    await writer.put(verified);
    await writer.close();
    const store = new SqliteEvidenceStore(path, { readOnly: true });
    await expect(decideGate({ store, proposition: 'P-win', action: restart, now: later(0) }, {}, call)).rejects.toSatisfy(
      (e: unknown) => DecisionError.isInstance(e) && e.code === 'EWP_REFUSE_DECISION_NOT_RECORDED',
    );
    let ran = 0;
    await expect(runGuarded({ store, proposition: 'P-win', action: restart, now: later(0) }, {}, call, () => ++ran)).rejects.toMatchObject({
      code: 'EWP_REFUSE_DECISION_NOT_RECORDED',
    });
    expect(ran).toBe(0);
    // A decision-only answer may opt to stay unrecorded on a read-only ledger (ewp_may_act does).
    const d = await decideGate({ store, proposition: 'P-win', action: restart, now: later(0), record: { readOnlyLedger: 'unrecorded' } }, {}, call);
    expect(d).toMatchObject({ decision: 'MAY_ACT', decisionId: null });
    await store.close();
  });

  it('record: false is an unrecorded gate: it decides and runs, and writes nothing', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(verified);
    const r = await runGuarded({ store, proposition: 'P-win', action: restart, now: later(0), record: false }, {}, call, () => 'ran');
    expect(r).toMatchObject({ status: 'executed', decisionId: null, result: 'ran' });
    expect(await store.readEntries()).toEqual([]);
  });

  it('the replay guard survives a restart: a decision executed before it is never executed again', async () => {
    const path = sqlitePath();
    const first = new SqliteEvidenceStore(path);
    await first.put(verified);
    const r = await runGuarded({ store: first, proposition: 'P-win', action: restart, now: later(0) }, { x: 1 }, call, () => 'ran');
    await first.close();
    const reopened = new SqliteEvidenceStore(path);
    let ran = 0;
    await expect(runDecision(reopened, r.decisionId as string, { x: 1 }, () => ++ran)).rejects.toMatchObject({ code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' });
    expect(ran).toBe(0);
    await reopened.close();
  });
});
