/**
 * The action gate (docs/spec/protocol.md §9) as an ordered rule table: the first row whose condition holds
 * decides. Only the four axes it reads are inputs; an unknown risk is refused.
 */

export type OracleDecision = 'MAY_ACT' | 'REQUIRE_CONFIRMATION' | 'DENY';

/** The axes the gate reads (verification, ids, strength and codes are never read). */
export interface GateAxes {
  readonly acceptance: string;
  readonly conflict: string;
  readonly currency: string;
  readonly sufficiency: string;
}

export interface GateInput extends GateAxes {
  readonly risk: string;
  readonly reversible: boolean;
  readonly highRequiresAccepted: boolean;
  readonly highRequiresNoOpenConflict: boolean;
}

type Rule = readonly [when: (x: GateInput) => boolean, decision: OracleDecision];

const HIGH: readonly Rule[] = [
  [(x) => x.currency === 'SUPERSEDED', 'DENY'],
  [(x) => x.highRequiresAccepted && x.acceptance !== 'ACCEPTED', 'DENY'],
  [(x) => x.highRequiresNoOpenConflict && x.conflict === 'OPEN', 'DENY'],
  [(x) => !x.reversible && x.acceptance !== 'ACCEPTED', 'DENY'],
  [(x) => x.sufficiency === 'DEGRADED' || x.currency === 'STALE', 'REQUIRE_CONFIRMATION'],
  [() => true, 'MAY_ACT'],
];

const LOW_OR_MEDIUM: readonly Rule[] = [
  [(x) => x.currency === 'SUPERSEDED', 'REQUIRE_CONFIRMATION'],
  [(x) => x.conflict === 'OPEN', 'REQUIRE_CONFIRMATION'],
  [(x) => x.sufficiency === 'DEGRADED', 'REQUIRE_CONFIRMATION'],
  [(x) => x.currency === 'STALE' && x.risk === 'medium', 'REQUIRE_CONFIRMATION'],
  [(x) => x.acceptance === 'TENTATIVE' && x.risk === 'medium', 'REQUIRE_CONFIRMATION'],
  [(x) => !x.reversible && x.acceptance !== 'ACCEPTED' && x.risk === 'medium', 'REQUIRE_CONFIRMATION'],
  [() => true, 'MAY_ACT'],
];

/** The decision, or `'REFUSED'` for a risk outside low/medium/high. */
export function gateDecision(x: GateInput): OracleDecision | 'REFUSED' {
  if (x.risk !== 'low' && x.risk !== 'medium' && x.risk !== 'high') return 'REFUSED';
  if (x.acceptance === 'UNACCEPTED') return 'DENY';
  const table = x.risk === 'high' ? HIGH : LOW_OR_MEDIUM;
  for (const [when, decision] of table) if (when(x)) return decision;
  throw new Error('unreachable: every table ends with a catch-all row');
}
