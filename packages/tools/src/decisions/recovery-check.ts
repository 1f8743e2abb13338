/**
 * The recovery gate over a ledger (docs/spec/receipts.md §12.4–§12.6): re-verifies the snapshots a recorded
 * decision rested on against the newest ones and the recorded retractions, and plans what must be
 * re-evaluated before a later use of that decision may proceed.
 */
import type { EvidenceView } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import {
  type DecisionBasis,
  type RecoveryGateRecord,
  type VerificationResult,
  type WarrantReverification,
  decisionRecoveryGate,
  reverifyWarrant,
} from '@ewp/receipts';
import type { DecisionFacts, StoredDecision } from './decision-ledger.js';

/** Newest snapshots already read by the caller, by proposition id (a Map is filled as a cache). */
export type NewestViews = ReadonlyMap<string, EvidenceView | undefined>;

async function newestOf(store: EvidenceStore, newest: NewestViews, propositionId: string): Promise<EvidenceView | undefined> {
  if (newest.has(propositionId)) return newest.get(propositionId);
  const view = await store.get(propositionId);
  if (newest instanceof Map && !Object.isFrozen(newest)) newest.set(propositionId, view);
  return view;
}

/**
 * A proposition's newest snapshot re-verified against itself with its retractions: ALLOW unless it
 * still holds a retracted record. This is what a re-evaluation proves.
 */
export function reevaluationResult(view: EvidenceView, refuted: ReadonlySet<string>): WarrantReverification {
  return reverifyWarrant(view, view, { refuted });
}

/**
 * The recovery gate for a later use of `baseline` (re-executing it, confirming it, or deciding its
 * action again). `redecided`: the action is being decided again now, on the newest warrants.
 * Nothing changed and nothing retracted: MAY_ACT without reading anything more. `cache` may be
 * shared by calls made while the ledger does not change.
 */
/**
 * What a caller re-checking many decisions may share between them: recorded snapshots and their
 * re-verifications, by `(proposition, recorded view id)` (valid while the ledger does not change).
 */
export interface RecoveryCache {
  evaluated: Map<string, EvidenceView | undefined>;
  checks: Map<string, WarrantReverification>;
}

/** An empty {@link RecoveryCache}. */
export function recoveryCache(): RecoveryCache {
  return { evaluated: new Map(), checks: new Map() };
}

export async function recoveryGateOf(
  store: EvidenceStore,
  ledger: DecisionFacts,
  baseline: StoredDecision,
  newest: NewestViews,
  redecided: boolean,
  cache: RecoveryCache = recoveryCache(),
): Promise<RecoveryGateRecord> {
  const basis = baseline.record.basis;
  const current = new Map<string, EvidenceView | undefined>();
  let unchanged = true;
  for (const b of basis) {
    const view = await newestOf(store, newest, b.proposition_id);
    current.set(b.proposition_id, view);
    if (view?.view_id !== b.view_id || ledger.refuted(b.proposition_id).size > 0) unchanged = false;
  }
  if (unchanged) return { decision: 'MAY_ACT', baseline_decision_id: baseline.decision_id, invalidated: {}, requirements: [] };
  const evaluated = new Map<string, EvidenceView>();
  const checks = new Map<string, WarrantReverification>();
  for (const b of basis) {
    const key = `${b.proposition_id}\u0000${b.view_id}`;
    let view = cache.evaluated.get(key);
    if (!cache.evaluated.has(key)) {
      view = await store.get(b.proposition_id, b.view_id);
      cache.evaluated.set(key, view);
    }
    // Snapshots are immutable: one the decision rested on and the ledger no longer returns fails closed.
    if (view === undefined) return missingBaseline(baseline, b);
    evaluated.set(b.proposition_id, view);
    let check = cache.checks.get(key);
    if (check === undefined) {
      check = reverifyWarrant(view, current.get(b.proposition_id), { refuted: ledger.refuted(b.proposition_id) });
      cache.checks.set(key, check);
    }
    checks.set(b.proposition_id, check);
  }
  return decisionRecoveryGate({
    decision_id: baseline.decision_id,
    record: baseline.record,
    baseline: (pid) => evaluated.get(pid) as EvidenceView,
    reverification: (pid) => checks.get(pid) as WarrantReverification,
    reevaluation: (pid) => reevaluatedSince(ledger, pid, baseline.chain_index, current.get(pid)),
    redecided,
  }).gate;
}

/** A re-evaluation after `afterIndex` and after the last retraction, on the newest snapshot, that proves ALLOW. */
function reevaluatedSince(ledger: DecisionFacts, pid: string, afterIndex: number, newest: EvidenceView | undefined): VerificationResult | undefined {
  const r = ledger.reevaluation(pid);
  if (r === undefined || newest === undefined || r.view_id !== newest.view_id) return undefined;
  if (r.chain_index <= afterIndex || r.chain_index <= ledger.lastRefutation(pid)) return undefined;
  const check = reevaluationResult(newest, ledger.refuted(pid));
  return check.action === 'ALLOW' ? check.result : undefined;
}

function missingBaseline(baseline: StoredDecision, b: DecisionBasis): RecoveryGateRecord {
  return {
    decision: 'DENY',
    baseline_decision_id: baseline.decision_id,
    invalidated: { [b.proposition_id]: 'integrity_failed' },
    requirements: [b.proposition_id],
  };
}

/**
 * The gate for a decision with no baseline: a consulted snapshot that still holds a retracted record
 * is REFUTED (DENY until a snapshot without it is evaluated); otherwise no gate (null).
 */
export function retractionGate(ledger: DecisionFacts, views: ReadonlyMap<string, EvidenceView>): RecoveryGateRecord | null {
  const invalidated: Record<string, string> = {};
  for (const [pid, view] of views) {
    const refuted = ledger.refuted(pid);
    if (refuted.size === 0) continue;
    const check = reevaluationResult(view, refuted);
    if (check.invalidation !== null) invalidated[pid] = check.invalidation;
  }
  const requirements = Object.keys(invalidated);
  return requirements.length === 0 ? null : { decision: 'DENY', baseline_decision_id: null, invalidated, requirements };
}
