/**
 * The warrant gate every framework binding shares: decide MAY_ACT / REQUIRE_CONFIRMATION / DENY
 * for an action on the latest stored evidence at the moment of the call (no stored evidence:
 * DENY), bounded by the recovery gate of the action's earlier decision and recorded in the
 * ledger (docs/spec/receipts.md §12.6), and the typed result a gated tool returns instead of running.
 */
import { type Action, type Decision, type GateRule, MAY_ACT_RULES, type RiskPolicy, type WarrantView } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { DecisionRecord, RecoveryGateRecord } from '@ewp/receipts';
import { z } from 'zod/v4';
import { type DecisionRecording, decide } from './decisions/recording-gate.js';

/** What a gated tool returns instead of running. */
export interface GateRefusal {
  ewp_gate: 'DENY' | 'REQUIRE_CONFIRMATION';
  reason: string;
  proposition_id: string;
  action_id: string;
  view_id: string | null;
  evaluated_at: string;
  acceptance: string | null;
  conflict: string | null;
  currency: string | null;
  sufficiency: string | null;
  /** The recorded decision (look it up with `ewp decisions show`); null when recording is off. */
  decision_id: string | null;
}

export const gateRefusalSchema = z.object({
  ewp_gate: z.enum(['DENY', 'REQUIRE_CONFIRMATION']),
  reason: z.string(),
  proposition_id: z.string(),
  action_id: z.string(),
  view_id: z.string().nullable(),
  evaluated_at: z.string(),
  acceptance: z.string().nullable(),
  conflict: z.string().nullable(),
  currency: z.string().nullable(),
  sufficiency: z.string().nullable(),
  decision_id: z.string().nullable(),
});

export interface GateOptions<INPUT> {
  /** The proposition the action depends on (or a function of the tool input). */
  proposition: string | ((input: INPUT) => string);
  /** The action, as `mayAct` reads it (or a function of the tool input). */
  action: Action | ((input: INPUT) => Action);
  /** The operator's action policy (docs/spec/protocol.md §9). */
  riskPolicy?: RiskPolicy;
  store: EvidenceStore;
  /** Clock for the decision time. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * How decisions are recorded in the store's ledger (gate name, signer). Default: recorded. `false`
   * decides without the ledger: no record, no recovery gate.
   */
  record?: DecisionRecording | false;
  /** Identifies a call in its record (e.g. the framework's tool call id). Default a random UUID. */
  callId?: (input: INPUT) => string | undefined;
}

/** One decision, with what it was made on. */
export interface GateDecision {
  decision: Decision;
  propositionId: string;
  action: Action;
  evaluatedAt: string;
  /** Undefined when nothing is stored for the proposition (decided DENY). */
  warrant: WarrantView | undefined;
  /** The `MAY_ACT_RULES` row that decided `mayAct`; undefined when nothing is stored (decided DENY). */
  rule: GateRule | undefined;
  /** The recovery gate that bounded `mayAct` (an earlier decision's evidence changed), or null. */
  recovery: RecoveryGateRecord | null;
  /** The ledger id of the decision record; null when recording is off. */
  decisionId: string | null;
  /** The decision record (also when recording is off). */
  record: DecisionRecord;
}

/**
 * Decide now, on the latest stored evidence. No stored evidence: DENY (nothing warrants acting).
 * `decision` is min(`mayAct`, recovery gate); the decision is recorded before it is returned.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record it.
 */
export async function decideGate<INPUT>(options: GateOptions<INPUT>, input: INPUT): Promise<GateDecision> {
  const propositionId = typeof options.proposition === 'function' ? options.proposition(input) : options.proposition;
  const action = typeof options.action === 'function' ? options.action(input) : options.action;
  const evaluatedAt = (options.now ?? (() => new Date()))().toISOString();
  const made = await decide({
    store: options.store,
    propositions: [propositionId],
    action,
    riskPolicy: options.riskPolicy,
    evaluatedAt,
    callId: options.callId?.(input),
    record: options.record,
  });
  const { record } = made;
  // The record's rule id names a MAY_ACT_RULES row (mayAct's own walk), or no_evidence.
  const rule = MAY_ACT_RULES.find((r) => r.id === record.rule);
  return {
    decision: record.decision,
    propositionId,
    action,
    evaluatedAt,
    warrant: made.warrants.get(propositionId),
    rule,
    recovery: record.recovery,
    decisionId: made.decision_id,
    record,
  };
}

/** The result a gated tool returns instead of running. */
export function gateRefusal(d: GateDecision, gate: GateRefusal['ewp_gate'], reason: string): GateRefusal {
  const w = d.warrant?.warrant;
  return {
    ewp_gate: gate,
    reason,
    proposition_id: d.propositionId,
    action_id: d.action.action_id,
    view_id: d.warrant?.view_id ?? null,
    evaluated_at: d.evaluatedAt,
    acceptance: w?.acceptance ?? null,
    conflict: w?.conflict ?? null,
    currency: w?.currency ?? null,
    sufficiency: w?.sufficiency ?? null,
    decision_id: d.decisionId,
  };
}

/** Why the recovery gate holds the action, or undefined when it does not (docs/spec/receipts.md §12.6). */
export function recoveryReason(d: GateDecision): string | undefined {
  const r = d.recovery;
  if (r === null || r.decision === 'MAY_ACT') return undefined;
  const changed = Object.entries(r.invalidated)
    .map(([pid, why]) => `${pid} (${why})`)
    .join(', ');
  return `the evidence an earlier decision on this action rested on changed: ${changed}; held until ${r.requirements.join(', ')} ${r.requirements.length === 1 ? 'is' : 'are'} re-evaluated`;
}

/** Why a DENY was decided, worded for the model. */
export function denyReason(d: GateDecision): string {
  const held = recoveryReason(d);
  if (held !== undefined) return `${held}; do not retry it as is`;
  if (d.warrant === undefined) return `no stored evidence for ${d.propositionId}: nothing warrants this action`;
  const w = d.warrant.warrant;
  return `the evidence for ${d.propositionId} does not warrant this ${d.action.risk ?? 'low'}-risk action (acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}); do not retry it as is`;
}

/**
 * The deciding rule in words, for a framework's approval prompt or refusal: the rule's id and what it
 * says, with the axes it read (or that nothing is stored).
 */
export function ruleReason(d: GateDecision): string {
  const held = recoveryReason(d);
  if (held !== undefined) return `${d.propositionId}: ${held}`;
  if (d.warrant === undefined || d.rule === undefined) return `no stored evidence for ${d.propositionId}: nothing warrants this action`;
  const w = d.warrant.warrant;
  return `${d.propositionId}: gate rule ${d.rule.id}, ${d.rule.says} (acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}; ${d.action.risk ?? 'low'} risk, ${d.action.reversible === false ? 'irreversible' : 'reversible'})`;
}
