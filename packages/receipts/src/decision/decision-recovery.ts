import type { EvidenceView } from '@ewp/core';
import { type Checkpoint, checkpoint } from '../checkpoint/model.js';
import { type VerificationResult, verifyCheckpoint } from '../checkpoint/verification.js';
import { DependencyGraph, type GraphNode } from '../graph/dependency-graph.js';
import { actionNode, lineageFromViews, propositionNode } from '../lineage/lineage-reevaluation.js';
import { type RecoveryPlan, actionAfterRecovery, planRecovery } from '../recovery/recovery-plan.js';
import type { DecisionRecord, RecoveryGateRecord } from './decision-record.js';
import { recoveryBound } from './effective-decision.js';
import { type WarrantReverification, warrantCheckpoint } from './warrant-reverification.js';

/**
 * The `act:<decision id>` checkpoint of a recorded decision (docs/spec/receipts.md §12.6): its evidence is the
 * consulted warrant receipt digests, its output the action and decision, its policy the risk
 * policy, and it depends on the propositions the decision rests on.
 */
export function actionCheckpoint(decisionId: string, record: DecisionRecord, dependsOn: readonly string[]): Checkpoint {
  return checkpoint({
    checkpoint_id: actionNode(decisionId),
    agent: record.gate,
    evidence: record.consulted.map((c) => ({ evidence_id: `warrant:${c.proposition_id}`, payload: c.receipt_digest, provenance: null })),
    output: { action: record.action, decision: record.decision, warrant_receipt_digests: record.consulted.map((c) => c.receipt_digest) },
    policy: { policy_id: record.risk_policy.policy_id, version: record.risk_policy.version, require_provenance: false },
    depends_on: dependsOn.map(propositionNode),
  });
}

/** What {@link decisionRecoveryGate} reads about one recorded decision's evidence now. */
export interface DecisionRecoveryInput {
  decision_id: string;
  record: DecisionRecord;
  /** The stored snapshot of each basis proposition, as the decision saw it. */
  baseline: (propositionId: string) => EvidenceView;
  /** That snapshot re-verified against the proposition's newest one (and its explicit retractions). */
  reverification: (propositionId: string) => WarrantReverification;
  /**
   * A re-evaluation of the proposition made after the decision, on its newest snapshot (a result for
   * `prop:<id>` whose action is ALLOW), or undefined.
   */
  reevaluation: (propositionId: string) => VerificationResult | undefined;
  /** The action itself is being decided again now (a new `mayAct` on the newest warrants). */
  redecided: boolean;
}

/** The recovery gate of a recorded decision, with the plan it came from. */
export interface DecisionRecoveryGate {
  gate: RecoveryGateRecord;
  plan: RecoveryPlan;
}

/**
 * The recovery gate of a later use of a recorded decision (docs/spec/receipts.md §12.5–§12.6). The graph is the
 * decision's basis (each proposition with its `derived_from` lineage among the basis, as the
 * decision saw it) plus `act:<id>`; a proposition whose re-verification is not ALLOW is invalidated;
 * the gate is `actionAfterRecovery(act, plan, re-evaluations)` as a bound on `mayAct`: DENY until
 * every proposition on the action's own path has been re-evaluated, MAY_ACT when nothing changed.
 * @throws {GraphError} for cyclic lineage among the basis.
 */
export function decisionRecoveryGate(input: DecisionRecoveryInput): DecisionRecoveryGate {
  const { record } = input;
  const views = record.basis.map((b) => input.baseline(b.proposition_id));
  const { lineage } = lineageFromViews(views);
  const nodes: GraphNode[] = [];
  const verification = new Map<string, VerificationResult>();
  const invalidations = new Map<string, string>();
  for (const [i, p] of lineage.entries()) {
    const view = views[i] as EvidenceView;
    const node = warrantCheckpoint(view, null, p.derived_from);
    nodes.push(node);
    const check = input.reverification(p.proposition_id);
    if (check.invalidation !== null) invalidations.set(node.checkpoint_id, check.invalidation);
    // Bound to this node: the same evaluated snapshot, verified against the newest evidence.
    else verification.set(node.checkpoint_id, verifyCheckpoint(node, { currentEvidence: new Map(check.current.map((r) => [r.evidence_id, r])) }));
  }
  const act = actionCheckpoint(input.decision_id, record, [...new Set(record.consulted.map((c) => c.proposition_id))]);
  nodes.push(act);
  const actResult = verifyCheckpoint(act);
  verification.set(act.checkpoint_id, actResult);
  const plan = planRecovery(new DependencyGraph(nodes), invalidations, verification, [act.checkpoint_id]);
  const reverified = new Map<string, VerificationResult>();
  for (const id of plan.requirementsFor(act.checkpoint_id) ?? []) {
    if (id === act.checkpoint_id) {
      if (input.redecided) reverified.set(id, actResult);
      continue;
    }
    const result = input.reevaluation(id.slice('prop:'.length));
    if (result !== undefined) reverified.set(id, result);
  }
  const decision = plan.invalidated.length === 0 ? 'MAY_ACT' : recoveryBound(actionAfterRecovery(act.checkpoint_id, plan, reverified));
  const invalidated: Record<string, string> = {};
  for (const id of plan.invalidated) if (id.startsWith('prop:')) invalidated[id.slice(5)] = plan.reasonFor(id) as string;
  const requirements = (plan.requirementsFor(act.checkpoint_id) ?? []).filter((id) => id.startsWith('prop:') && !reverified.has(id)).map((id) => id.slice(5));
  return { gate: { decision, baseline_decision_id: input.decision_id, invalidated, requirements }, plan };
}
