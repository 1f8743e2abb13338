/**
 * The warrant gate every framework binding shares: decide MAY_ACT / REQUIRE_CONFIRMATION / DENY
 * for an action on the latest stored evidence at the moment of the call (no stored evidence:
 * DENY), and the typed result a gated tool returns instead of running.
 */
import { type Action, type Decision, type GateRule, gateRuleFor, REFERENCE_V2, type RiskPolicy, type WarrantView, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { z } from 'zod';

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
}

/** One decision, with what it was made on. */
export interface GateDecision {
  decision: Decision;
  propositionId: string;
  action: Action;
  evaluatedAt: string;
  /** Undefined when nothing is stored for the proposition (decided DENY). */
  warrant: WarrantView | undefined;
  /** The `MAY_ACT_RULES` row that decided; undefined when nothing is stored (decided DENY). */
  rule: GateRule | undefined;
}

/** Decide now, on the latest stored evidence. No stored evidence: DENY (nothing warrants acting). */
export async function decideGate<INPUT>(options: GateOptions<INPUT>, input: INPUT): Promise<GateDecision> {
  const propositionId = typeof options.proposition === 'function' ? options.proposition(input) : options.proposition;
  const action = typeof options.action === 'function' ? options.action(input) : options.action;
  const evaluatedAt = (options.now ?? (() => new Date()))().toISOString();
  const view = await options.store.get(propositionId);
  if (view === undefined) return { decision: 'DENY', propositionId, action, evaluatedAt, warrant: undefined, rule: undefined };
  const warrant = warrantNow(view, REFERENCE_V2, evaluatedAt);
  // gateRuleFor is mayAct's own table walk: its decision is mayAct's, with the row that decided.
  const rule = gateRuleFor(warrant, action, options.riskPolicy);
  return { decision: rule.decision, propositionId, action, evaluatedAt, warrant, rule };
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
  };
}

/** Why a DENY was decided, worded for the model. */
export function denyReason(d: GateDecision): string {
  if (d.warrant === undefined) return `no stored evidence for ${d.propositionId}: nothing warrants this action`;
  const w = d.warrant.warrant;
  return `the evidence for ${d.propositionId} does not warrant this ${d.action.risk ?? 'low'}-risk action (acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}); do not retry it as is`;
}

/**
 * The deciding rule in words, for a framework's approval prompt or refusal: the rule's id and what it
 * says, with the axes it read (or that nothing is stored).
 */
export function ruleReason(d: GateDecision): string {
  if (d.warrant === undefined || d.rule === undefined) return `no stored evidence for ${d.propositionId}: nothing warrants this action`;
  const w = d.warrant.warrant;
  return `${d.propositionId}: gate rule ${d.rule.id}, ${d.rule.says} (acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}; ${d.action.risk ?? 'low'} risk, ${d.action.reversible === false ? 'irreversible' : 'reversible'})`;
}
