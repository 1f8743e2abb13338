/**
 * The warrant gate every framework binding shares: decide MAY_ACT / REQUIRE_CONFIRMATION / DENY
 * for an action on the latest stored evidence at the moment of the call (no stored evidence:
 * DENY), bounded by the recovery gate of the action's earlier decision and recorded in the
 * ledger (docs/spec/receipts.md §12.6), and the typed result a gated tool returns instead of running.
 */
import { type Decision, type GateRule, MAY_ACT_RULES, type WarrantView } from '@ewp/core';
import type { DecisionRecord, RecoveryGateRecord } from '@ewp/receipts';
import { decide } from './decisions/recording-gate.js';
import { type GateAction, type GateOptions, resolveGate } from './gate-options.js';

/** What a gated tool returns instead of running (a plain object the model reads). */
export interface GateRefusal {
  /** Marks the result as the gate's, and says which decision stopped the call. */
  ewpGate: Exclude<Decision, 'MAY_ACT'>;
  /** Why, worded for the model, with what would change the answer. */
  reason: string;
  /** The claim the action depends on, when the gate named one in words. */
  claim: string | null;
  propositionId: string;
  actionId: string;
  viewId: string | null;
  evaluatedAt: string;
  acceptance: string | null;
  conflict: string | null;
  currency: string | null;
  sufficiency: string | null;
  /** The recorded decision (look it up with `ewp decisions show`); null when recording is off. */
  decisionId: string | null;
}

/** One framework call a gate decides on: the binding's gate name, the wrapped tool's name and the framework's call id. */
export interface GateCall {
  /** The binding's gate name: its decision records name it (`ai-sdk`, `langchain`, `adk`, ...). */
  gate: string;
  /** The wrapped tool's name: the default action id and kind. */
  tool: string;
  /** The framework's id of the call; `undefined` when the framework gives none (then a random one is recorded). */
  callId: string | undefined;
}

/** One decision, with what it was made on. */
export interface GateDecision {
  decision: Decision;
  /** The claim in words, when the gate named one. */
  claim: string | undefined;
  propositionId: string;
  /** The action, as the options named it with the defaults applied. */
  action: Required<GateAction>;
  evaluatedAt: string;
  /** The protocol's WarrantView of the proposition at `evaluatedAt`; undefined when nothing is stored (decided DENY). */
  warrant: WarrantView | undefined;
  /** The `MAY_ACT_RULES` row that decided `mayAct`; undefined when nothing is stored (decided DENY). */
  rule: GateRule | undefined;
  /** The recovery gate that bounded `mayAct` (an earlier decision's evidence changed), or null. */
  recovery: RecoveryGateRecord | null;
  /** The ledger id of the decision record; null when recording is off. */
  decisionId: string | null;
  /** The decision record as the ledger keeps it (also when recording is off). */
  record: DecisionRecord;
}

/**
 * Decide now, on the latest stored evidence. No stored evidence: DENY (nothing warrants acting).
 * `decision` is min(`mayAct`, recovery gate); the decision is recorded (under `call.gate` and
 * `call.callId`, unless the options map their own) before it is returned.
 * @throws {InvalidArgumentError} when a function option returns something malformed for this input.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record it.
 */
export async function decideGate<INPUT>(options: GateOptions<INPUT>, input: INPUT, call: GateCall): Promise<GateDecision> {
  const resolved = resolveGate(options, input, call.tool);
  const evaluatedAt = (options.now ?? (() => new Date()))().toISOString();
  const callId = options.callId === undefined ? call.callId : options.callId(input);
  const made = await decide({
    store: options.store,
    propositions: [resolved.propositionId],
    action: resolved.action,
    riskPolicy: resolved.riskPolicy,
    evaluatedAt,
    callId,
    record: options.record === false ? false : { ...options.record, gate: options.record?.gate ?? call.gate },
  });
  const { record } = made;
  // The record's rule id names a MAY_ACT_RULES row (mayAct's own walk), or no_evidence.
  const rule = MAY_ACT_RULES.find((r) => r.id === record.rule);
  const a = resolved.action;
  return {
    decision: record.decision,
    claim: resolved.claim,
    propositionId: resolved.propositionId,
    action: { id: a.action_id, kind: a.kind, risk: a.risk ?? 'low', reversible: a.reversible ?? true },
    evaluatedAt,
    warrant: made.warrants.get(resolved.propositionId),
    rule,
    recovery: record.recovery,
    decisionId: made.decision_id,
    record,
  };
}

/** The result a gated tool returns instead of running. */
export function gateRefusal(d: GateDecision, gate: GateRefusal['ewpGate'], reason: string): GateRefusal {
  const w = d.warrant?.warrant;
  return {
    ewpGate: gate,
    reason,
    claim: d.claim ?? null,
    propositionId: d.propositionId,
    actionId: d.action.id,
    viewId: d.warrant?.view_id ?? null,
    evaluatedAt: d.evaluatedAt,
    acceptance: w?.acceptance ?? null,
    conflict: w?.conflict ?? null,
    currency: w?.currency ?? null,
    sufficiency: w?.sufficiency ?? null,
    decisionId: d.decisionId,
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

/** What a gate says when nothing is stored for its claim, with how to record some. */
function noEvidence(d: GateDecision): string {
  const what = d.claim === undefined ? d.propositionId : `"${d.claim}" (${d.propositionId})`;
  return (
    `no stored evidence for ${what}: nothing warrants this action. Record some first: ` +
    (d.claim === undefined
      ? 'ewp_evidence_view_put creates the first snapshot of a proposition id (ewp_evidence_record and ewp_check_record extend it)'
      : `wrap the tool that checks it with observe(tool, { claim }) so its results land on this claim, or run ` +
        `\`ewp observe --claim "${d.claim}" --tool <the checking tool> --supports\``)
  );
}

/** Why a DENY was decided, worded for the model. */
export function denyReason(d: GateDecision): string {
  const held = recoveryReason(d);
  if (held !== undefined) return `${held}; do not retry it as is`;
  if (d.warrant === undefined) return `${noEvidence(d)}; do not retry it as is`;
  const w = d.warrant.warrant;
  return `the evidence for ${d.claim === undefined ? d.propositionId : `"${d.claim}"`} does not warrant this ${d.action.risk}-risk action (${d.rule === undefined ? '' : `rule ${d.rule.id}: ${d.rule.says}; `}acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}); do not retry it as is`;
}

/**
 * The deciding rule in words, for a framework's approval prompt or refusal: the rule's id and what it
 * says, with the axes it read (or that nothing is stored).
 */
export function ruleReason(d: GateDecision): string {
  const held = recoveryReason(d);
  if (held !== undefined) return `${d.propositionId}: ${held}`;
  if (d.warrant === undefined || d.rule === undefined) return noEvidence(d);
  const w = d.warrant.warrant;
  return `${d.propositionId}: gate rule ${d.rule.id}, ${d.rule.says} (acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}; ${d.action.risk} risk, ${d.action.reversible ? 'reversible' : 'irreversible'})`;
}
