import { InvalidAction, InvalidWarrant } from './errors.js';
import { type Action, AXIS_VALUES, type Decision, RISKS, type Risk, type RiskPolicy, type Warrant, type WarrantView } from '@ewp/spec';

const RISK_SET: ReadonlySet<string> = new Set(RISKS);

/** What one {@link MAY_ACT_RULES} rule reads: the axes, the action's risk and reversibility, and the two policy flags. */
export interface GateSituation {
  warrant: Warrant;
  risk: Risk;
  reversible: boolean;
  highRequiresAccepted: boolean;
  highRequiresNoOpenConflict: boolean;
}

/** One row of the action gate's rule table (docs/spec/protocol.md §9): the first row that applies decides. */
export interface GateRule {
  /** Stable id, e.g. `high.open_conflict`. */
  id: string;
  decision: Decision;
  /** The rule in plain words. */
  says: string;
  applies(s: GateSituation): boolean;
}

/**
 * The action gate as an ordered rule table (docs/spec/protocol.md §9): {@link mayAct} returns the decision of the
 * first row that applies; the last row always applies. Exported so tools can show which rule
 * decided and ask what would change the decision, without a second copy of the rules.
 */
export const MAY_ACT_RULES: readonly GateRule[] = Object.freeze([
  {
    id: 'unaccepted',
    decision: 'DENY',
    says: 'nothing available asserts or supports the proposition (acceptance UNACCEPTED)',
    applies: (s) => s.warrant.acceptance === 'UNACCEPTED',
  },
  {
    id: 'high.superseded',
    decision: 'DENY',
    says: 'a high-risk action on a superseded proposition',
    applies: (s) => s.risk === 'high' && s.warrant.currency === 'SUPERSEDED',
  },
  {
    id: 'high.requires_accepted',
    decision: 'DENY',
    says: 'high risk needs acceptance ACCEPTED (policy high_requires_accepted)',
    applies: (s) => s.risk === 'high' && s.highRequiresAccepted && s.warrant.acceptance !== 'ACCEPTED',
  },
  {
    id: 'high.open_conflict',
    decision: 'DENY',
    says: 'high risk with an open conflict (policy high_requires_no_open_conflict)',
    applies: (s) => s.risk === 'high' && s.highRequiresNoOpenConflict && s.warrant.conflict === 'OPEN',
  },
  {
    id: 'high.irreversible_unaccepted',
    decision: 'DENY',
    says: 'a high-risk irreversible action needs acceptance ACCEPTED',
    applies: (s) => s.risk === 'high' && !s.reversible && s.warrant.acceptance !== 'ACCEPTED',
  },
  {
    id: 'high.degraded_or_stale',
    decision: 'REQUIRE_CONFIRMATION',
    says: 'high risk on degraded retrieval or a stale check',
    applies: (s) => s.risk === 'high' && (s.warrant.sufficiency === 'DEGRADED' || s.warrant.currency === 'STALE'),
  },
  { id: 'high.warranted', decision: 'MAY_ACT', says: 'high risk, and every high-risk condition holds', applies: (s) => s.risk === 'high' },
  {
    id: 'doubt',
    decision: 'REQUIRE_CONFIRMATION',
    says: 'superseded, an open conflict, or degraded retrieval',
    applies: (s) => s.warrant.currency === 'SUPERSEDED' || s.warrant.conflict === 'OPEN' || s.warrant.sufficiency === 'DEGRADED',
  },
  {
    id: 'medium.stale_tentative_or_irreversible',
    decision: 'REQUIRE_CONFIRMATION',
    says: 'medium risk on a stale check, a tentative acceptance, or an irreversible action without acceptance ACCEPTED',
    applies: (s) =>
      s.risk === 'medium' && (s.warrant.currency === 'STALE' || s.warrant.acceptance === 'TENTATIVE' || (!s.reversible && s.warrant.acceptance !== 'ACCEPTED')),
  },
  { id: 'warranted', decision: 'MAY_ACT', says: 'low or medium risk with no reason for doubt', applies: () => true },
] satisfies GateRule[]);

/**
 * The action gate (docs/spec/protocol.md §9): may an agent act on this proposition, given its warrant, the
 * action's risk and reversibility, and the risk policy? Reads only the axes; verification,
 * strength and codes are ignored. An unknown `risk` is refused, never softened.
 *
 * @param warrant a WarrantView or just its `warrant` axes.
 * @throws InvalidAction when `risk` is not low/medium/high or a flag is not a boolean;
 *   InvalidWarrant when an axis the gate reads is missing or not one of its values (fail closed).
 */
export function mayAct(warrant: WarrantView | Warrant, action: Action, riskPolicy: RiskPolicy = {}): Decision {
  return gateRuleFor(warrant, action, riskPolicy).decision;
}

/**
 * The {@link MAY_ACT_RULES} row that decides {@link mayAct} for these arguments (same checks, same errors).
 */
export function gateRuleFor(warrant: WarrantView | Warrant, action: Action, riskPolicy: RiskPolicy = {}): GateRule {
  const w = axesOf(warrant);
  if (typeof action !== 'object' || action === null) throw new InvalidAction('action must be an object', '$.action');
  const risk = action.risk ?? 'low';
  if (typeof risk !== 'string' || !RISK_SET.has(risk))
    throw new InvalidAction(`risk must be low, medium or high, got ${JSON.stringify(risk)}`, '$.action.risk');
  const reversible = action.reversible ?? true;
  if (typeof reversible !== 'boolean') throw new InvalidAction('reversible must be a boolean', '$.action.reversible');
  const situation: GateSituation = {
    warrant: w,
    risk: risk as Risk,
    reversible,
    highRequiresAccepted: flag(riskPolicy, 'high_requires_accepted'),
    highRequiresNoOpenConflict: flag(riskPolicy, 'high_requires_no_open_conflict'),
  };
  for (const rule of MAY_ACT_RULES) if (rule.applies(situation)) return rule;
  // Unreachable: the last rule always applies.
  return MAY_ACT_RULES[MAY_ACT_RULES.length - 1] as GateRule;
}

function flag(policy: RiskPolicy, key: 'high_requires_accepted' | 'high_requires_no_open_conflict'): boolean {
  const v = policy?.[key];
  if (v === undefined) return true;
  if (typeof v !== 'boolean') throw new InvalidAction(`${key} must be a boolean`, `$.risk_policy.${key}`);
  return v;
}

/** The axes the gate reads (verification and strength never decide), with their values. */
const GATE_AXES: Record<'acceptance' | 'conflict' | 'currency' | 'sufficiency', ReadonlySet<string>> = {
  acceptance: new Set(AXIS_VALUES.acceptance),
  conflict: new Set(AXIS_VALUES.conflict),
  currency: new Set(AXIS_VALUES.currency),
  sufficiency: new Set(AXIS_VALUES.sufficiency),
};

// A gate must fail closed: an axis it cannot read is an error, never a default.
function axesOf(warrant: WarrantView | Warrant): Warrant {
  if (typeof warrant !== 'object' || warrant === null) throw new InvalidWarrant('warrant must be an object', '$.warrant');
  const nested = 'warrant' in warrant;
  const w = (nested ? warrant.warrant : warrant) as Warrant;
  const base = nested ? '$.warrant.warrant' : '$.warrant';
  if (typeof w !== 'object' || w === null) throw new InvalidWarrant('warrant axes must be an object', base);
  for (const [axis, values] of Object.entries(GATE_AXES)) {
    const v = (w as unknown as Record<string, unknown>)[axis];
    if (typeof v !== 'string' || !values.has(v))
      throw new InvalidWarrant(`${axis} must be one of ${[...values].join(', ')}, got ${JSON.stringify(v)}`, `${base}.${axis}`);
  }
  return w;
}
