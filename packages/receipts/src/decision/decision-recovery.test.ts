import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type EvidenceView, decodeView, warrantNow } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { warrantReceiptFor } from '../warrant/warrant-receipt.js';
import { type DecisionRecord, buildDecisionRecord, consultedWarrant, decisionAction, decisionRiskPolicy } from './decision-record.js';
import { decisionRecoveryGate } from './decision-recovery.js';
import { type WarrantReverification, reverifyWarrant } from './warrant-reverification.js';

const fixture = (name: string): EvidenceView =>
  decodeView(JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../conformance/pack/fixtures/${name}.json`, import.meta.url)), 'utf8')));
const T = '2026-09-21T21:00:00Z';
const base = fixture('08-verified-now');

/** A copy of the verified fixture as proposition `pid`, derived from `from`. */
function prop(pid: string, from: string[] = [], patch: Partial<Record<string, unknown>> = {}): EvidenceView {
  const raw = JSON.parse(JSON.stringify(base)) as Record<string, unknown> & {
    assertions: { proposition_id: string }[];
    evidence: { proposition_id: string }[];
  };
  return decodeView({
    ...raw,
    proposition_id: pid,
    view_id: `v-${pid}`,
    assertions: raw.assertions.map((a) => ({ ...a, proposition_id: pid })),
    evidence: raw.evidence.map((e) => ({ ...e, proposition_id: pid })),
    lineage: from.map((to) => ({ from_id: pid, to_id: to, kind: 'derived_from' })),
    ...patch,
  });
}

describe('re-verifying a warrant against a newer snapshot (§12.4)', () => {
  it('an identical snapshot under another id, or new recall salience only, is reusable', () => {
    expect(reverifyWarrant(base, decodeView({ ...base, view_id: 'v-2' })).action).toBe('ALLOW');
    expect(reverifyWarrant(base, decodeView({ ...base, adapter_meta: { recall_count: 40, score: 0.97 } })).action).toBe('ALLOW');
  });
  it('a dropped check is MISSING, a retraction REFUTED, an added record NEW, never REFUTED for opposition', () => {
    const dropped = reverifyWarrant(base, decodeView({ ...base, view_id: 'v-2', checks: [] }));
    expect(dropped).toMatchObject({ action: 'BLOCK', invalidation: 'evidence_missing', changes: { 'check:k1': 'MISSING' } });
    const retracted = reverifyWarrant(base, base, { refuted: new Set(['check:k1']) });
    expect(retracted).toMatchObject({ action: 'BLOCK', invalidation: 'evidence_refuted', changes: { 'check:k1': 'REFUTED' } });
    const opposing = decodeView({ ...base, view_id: 'v-3', checks: [...base.checks, { ...base.checks[0]!, check_id: 'k2', result: 'opposes' }] });
    const added = reverifyWarrant(base, opposing);
    expect(added).toMatchObject({ action: 'REVIEW_REQUIRED', invalidation: 'evidence_changed', changes: { 'check:k2': 'NEW' } });
    expect(Object.values(added.changes)).not.toContain('REFUTED');
    // The view-level fields are a record too: a degraded retrieval is a change.
    expect(reverifyWarrant(base, decodeView({ ...base, degraded: true })).changes).toEqual({ 'view:meta': 'CHANGED' });
    expect(reverifyWarrant(base, undefined)).toMatchObject({ action: 'BLOCK', invalidation: 'evidence_missing' });
  });
});

function decisionOn(views: EvidenceView[], consulted: EvidenceView): DecisionRecord {
  const a = decisionAction({ action_id: 'act-1', kind: 'deploy', risk: 'low', reversible: true });
  const p = decisionRiskPolicy(undefined);
  const w = warrantNow(consulted, { policy_id: 'reference-v2', version: 'reference-v2' }, T);
  return buildDecisionRecord({
    gate: 'library',
    call_id: 'c1',
    action: a,
    risk_policy: p,
    evaluated_at: T,
    unsupported: [],
    consulted: [consultedWarrant(warrantReceiptFor(consulted, w), w, a, p)],
    basis: views.map((v) => ({ proposition_id: v.proposition_id, view_id: v.view_id })),
    recovery: null,
  });
}

describe('the recovery gate of a recorded decision (§12.5–§12.6)', () => {
  // P1 <- P2 <- (the action); P3 is an unrelated premise of nothing the action used.
  const p1 = prop('P1');
  const p2 = prop('P2', ['P1']);
  const views = new Map([p1, p2].map((v) => [v.proposition_id, v]));
  const record = decisionOn([p2, p1], p2);

  function gate(newest: Map<string, EvidenceView>, reevaluated: Set<string>, redecided = true) {
    const checks = new Map<string, WarrantReverification>();
    for (const [pid, v] of views) checks.set(pid, reverifyWarrant(v, newest.get(pid)));
    return decisionRecoveryGate({
      decision_id: 'dec_1',
      record,
      baseline: (pid) => views.get(pid)!,
      reverification: (pid) => checks.get(pid)!,
      reevaluation: (pid) => (reevaluated.has(pid) ? reverifyWarrant(newest.get(pid)!, newest.get(pid)!).result : undefined),
      redecided,
    }).gate;
  }

  it('nothing changed: MAY_ACT, nothing to re-evaluate', () => {
    expect(gate(new Map(views), new Set())).toEqual({ decision: 'MAY_ACT', baseline_decision_id: 'dec_1', invalidated: {}, requirements: [] });
  });
  it('an upstream premise changed: DENY until it and everything on the path to the action are re-evaluated', () => {
    const newest = new Map(views);
    newest.set('P1', decodeView({ ...p1, view_id: 'v-P1-2', checks: [] }));
    const held = gate(newest, new Set());
    expect(held).toMatchObject({ decision: 'DENY', invalidated: { P1: 'evidence_missing', P2: 'depends_on_invalidated:prop:P1' }, requirements: ['P1', 'P2'] });
    expect(gate(newest, new Set(['P1']))).toMatchObject({ decision: 'DENY', requirements: ['P2'] });
    expect(gate(newest, new Set(['P1', 'P2']))).toMatchObject({ decision: 'MAY_ACT', requirements: [] });
    // A later use that does not decide the action again (executing the old decision) stays held.
    expect(gate(newest, new Set(['P1', 'P2']), false).decision).toBe('DENY');
  });
  it('a change outside the action path never holds it (path-specific requirements)', () => {
    const p3 = prop('P3', ['P1']);
    const wide = decisionOn([p2, p1, p3], p2);
    const all = new Map([p1, p2, p3].map((v) => [v.proposition_id, v]));
    const newest = new Map(all);
    newest.set('P3', decodeView({ ...p3, view_id: 'v-P3-2', checks: [] }));
    const r = decisionRecoveryGate({
      decision_id: 'dec_2',
      record: wide,
      baseline: (pid) => all.get(pid)!,
      reverification: (pid) => reverifyWarrant(all.get(pid)!, newest.get(pid)),
      reevaluation: () => undefined,
      redecided: true,
    }).gate;
    expect(r).toMatchObject({ decision: 'MAY_ACT', invalidated: { P3: 'evidence_missing' }, requirements: [] });
  });
});
