import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Action, type EvidenceView, decodeView, mayAct, warrantNow } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { Ed25519Signer, Ed25519Verifier } from '../signing/key-registry.js';
import { verifyWarrantReceipt, warrantReceiptFor } from '../warrant/warrant-receipt.js';
import {
  type DecisionRecord,
  buildDecisionRecord,
  consultedWarrant,
  decisionAction,
  decisionId,
  decisionRiskPolicy,
  signDecisionRecord,
  verifyDecisionRecord,
} from './decision-record.js';
import { effectiveDecision, minDecision, recoveryBound } from './effective-decision.js';

const fixture = (name: string): EvidenceView =>
  decodeView(JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../conformance/pack/fixtures/${name}.json`, import.meta.url)), 'utf8')));

const T = '2026-09-21T21:00:00Z';
// RFC 8032 test 1 secret seed.
const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';

function decisionOn(view: EvidenceView, action: Action): DecisionRecord {
  const a = decisionAction(action);
  const policy = decisionRiskPolicy(undefined);
  const w = warrantNow(view, { policy_id: 'reference-v2', version: 'reference-v2' }, T);
  return buildDecisionRecord({
    gate: 'library',
    call_id: 'call-1',
    action: a,
    risk_policy: policy,
    evaluated_at: T,
    unsupported: [],
    consulted: [consultedWarrant(warrantReceiptFor(view, w), w, a, policy)],
    basis: [{ proposition_id: view.proposition_id, view_id: view.view_id }],
    recovery: null,
  });
}

const deploy: Action = { action_id: 'deploy', kind: 'deploy', risk: 'high', reversible: false };
const view = fixture('08-verified-now');
const snapshots = (v: EvidenceView) => (pid: string, vid: string) => (pid === v.proposition_id && vid === v.view_id ? v : undefined);

describe('decision records', () => {
  it('binds the consulted warrant receipt, the rule and mayAct, and verifies from the snapshot alone', () => {
    const record = decisionOn(view, deploy);
    const w = warrantNow(view, { policy_id: 'reference-v2', version: 'reference-v2' }, T);
    expect(record.may_act).toBe(mayAct(w, deploy));
    expect(record.decision).toBe(record.may_act);
    expect(verifyWarrantReceipt(record.consulted[0]!.receipt, view).ok).toBe(true);
    const id = decisionId(record);
    expect(id).toMatch(/^dec_[0-9a-f]{32}$/);
    const check = verifyDecisionRecord(id, record, snapshots(view));
    expect(check).toMatchObject({ ok: true, status: 'VERIFIED' });
    expect(check.receipt_digests['P-win']).toBe(record.consulted[0]!.receipt_digest);
  });

  it('catches every tamper: id, decision, receipt, rule, snapshot, shape', () => {
    const record = decisionOn(view, deploy);
    const id = decisionId(record);
    expect(record).toMatchObject({ may_act: 'MAY_ACT', rule: 'high.warranted' });
    // Any edit changes the id.
    const edited = { ...record, rule: 'warranted' };
    expect(verifyDecisionRecord(id, edited, snapshots(view)).status).toBe('ID_MISMATCH');
    // Edits with the id recomputed are caught by re-deriving the rule and the decision.
    const lowered = { ...record, decision: 'REQUIRE_CONFIRMATION' as const };
    expect(verifyDecisionRecord(decisionId(lowered), lowered, snapshots(view)).status).toBe('DECISION_MISMATCH');
    const loosened = { ...record, risk_policy: { ...record.risk_policy, high_requires_accepted: false } };
    expect(verifyDecisionRecord(decisionId(loosened), loosened, snapshots(view)).status).toBe('VERIFIED');
    const conflicted = decodeView({ ...view, conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-win', 'P-other'], status: 'open', note: '' }] });
    expect(verifyDecisionRecord(id, record, snapshots(conflicted)).status).toBe('RECEIPT_MISMATCH');
    const digest = { ...record, consulted: [{ ...record.consulted[0]!, receipt_digest: '0'.repeat(64) }] };
    expect(verifyDecisionRecord(decisionId(digest), digest, snapshots(view)).status).toBe('RECEIPT_MISMATCH');
    const rule = { ...record, consulted: [{ ...record.consulted[0]!, rule: 'doubt' }] };
    expect(verifyDecisionRecord(decisionId(rule), rule, snapshots(view)).status).toBe('DECISION_MISMATCH');
    // Another snapshot under the recorded view id (a rewritten ledger row).
    const other = decodeView({ ...view, checks: [] });
    expect(verifyDecisionRecord(id, record, snapshots(other)).status).toBe('RECEIPT_MISMATCH');
    expect(verifyDecisionRecord(id, record, () => undefined).status).toBe('MISSING_SNAPSHOT');
    expect(verifyDecisionRecord(id, { ...record, consulted: 'x' }, snapshots(view))).toMatchObject({ ok: false, status: 'INVALID_RECORD' });
    expect(verifyDecisionRecord(id, null, snapshots(view)).status).toBe('INVALID_RECORD');
  });

  it('a held decision is the minimum of mayAct and the recovery gate, and verifies as such', () => {
    const base = decisionOn(view, { ...deploy, risk: 'low', reversible: true });
    expect(base.may_act).toBe('MAY_ACT');
    const held = buildDecisionRecord({
      ...base,
      recovery: { decision: 'DENY', baseline_decision_id: 'dec_x', invalidated: { 'P-win': 'evidence_refuted' }, requirements: ['P-win'] },
    });
    expect(held.decision).toBe('DENY');
    expect(held.may_act).toBe('MAY_ACT');
    expect(verifyDecisionRecord(decisionId(held), held, snapshots(view)).ok).toBe(true);
    const lifted = { ...held, decision: 'MAY_ACT' as const };
    expect(verifyDecisionRecord(decisionId(lifted), lifted, snapshots(view)).status).toBe('DECISION_MISMATCH');
  });

  it('no stored evidence decides DENY under the no_evidence rule', () => {
    const r = buildDecisionRecord({
      gate: 'library',
      call_id: 'c',
      action: decisionAction(deploy),
      risk_policy: decisionRiskPolicy(undefined),
      evaluated_at: T,
      unsupported: ['P-none'],
      consulted: [],
      basis: [],
      recovery: null,
    });
    expect(r).toMatchObject({ may_act: 'DENY', rule: 'no_evidence', decision: 'DENY' });
    expect(verifyDecisionRecord(decisionId(r), r, () => undefined).ok).toBe(true);
  });

  it('signs with the §5 envelope under its own label; key states decide', () => {
    const record = decisionOn(view, deploy);
    const id = decisionId(record);
    const signer = new Ed25519Signer('k1', SEED);
    const signature = signDecisionRecord(record, signer);
    const active = new Ed25519Verifier({ k1: { public_hex: signer.publicKeyHex(), state: 'ACTIVE' } });
    expect(verifyDecisionRecord(id, record, snapshots(view), { signature, verifier: active }).status).toBe('VERIFIED');
    const retired = new Ed25519Verifier({ k1: { public_hex: signer.publicKeyHex(), state: 'RETIRED' } });
    expect(verifyDecisionRecord(id, record, snapshots(view), { signature, verifier: retired }).status).toBe('VERIFIED_RETIRED_KEY');
    const revoked = new Ed25519Verifier({ k1: { public_hex: signer.publicKeyHex(), state: 'REVOKED' } });
    expect(verifyDecisionRecord(id, record, snapshots(view), { signature, verifier: revoked })).toMatchObject({ ok: false, status: 'REVOKED_KEY' });
    expect(verifyDecisionRecord(id, record, snapshots(view), { verifier: active })).toMatchObject({ ok: false, status: 'UNSIGNED' });
    // A signature over one record does not verify another (same key, ids recomputed).
    const other = { ...record, call_id: 'call-2' };
    expect(verifyDecisionRecord(decisionId(other), other, snapshots(view), { signature, verifier: active }).status).toBe('INVALID_SIGNATURE');
    // Nor does it pass as a warrant receipt signature.
    const asWarrant = verifyWarrantReceipt({ receipt: record.consulted[0]!.receipt, ...signature }, view, { verifier: active });
    expect(asWarrant.status).toBe('INVALID_SIGNATURE');
    expect(() => signDecisionRecord(record, new Ed25519Signer('k1', SEED, 'RETIRED'))).toThrow(/ACTIVE/);
  });
});

describe('the effective decision', () => {
  const all = ['DENY', 'REQUIRE_CONFIRMATION', 'MAY_ACT'] as const;
  it('is never more permissive than mayAct or the gate', () => {
    const rank = (d: string) => all.indexOf(d as (typeof all)[number]);
    for (const m of all) {
      expect(effectiveDecision(m, null)).toBe(m);
      for (const g of all) {
        const e = effectiveDecision(m, g);
        expect(rank(e)).toBeLessThanOrEqual(rank(m));
        expect(rank(e)).toBeLessThanOrEqual(rank(g));
        expect(e === m || e === g).toBe(true);
        expect(minDecision(m, g)).toBe(minDecision(g, m));
      }
    }
    expect(['ALLOW', 'REVIEW_REQUIRED', 'BLOCK'].map((a) => recoveryBound(a as 'ALLOW'))).toEqual(['MAY_ACT', 'REQUIRE_CONFIRMATION', 'DENY']);
  });
});
