import { InvalidAction, InvalidWarrant } from './errors.js';
import type { Action, Decision, RiskPolicy, Warrant, WarrantView } from './types.js';

const RISKS: ReadonlySet<string> = new Set(['low', 'medium', 'high']);

/**
 * The action gate (SPEC §9): may an agent act on this proposition, given its warrant, the
 * action's risk and reversibility, and the risk policy? Reads only the axes; verification,
 * strength and codes are ignored. An unknown `risk` is refused, never softened.
 *
 * @param warrant a WarrantView or just its `warrant` axes.
 * @throws InvalidAction when `risk` is not low/medium/high or a flag is not a boolean;
 *   InvalidWarrant when an axis the gate reads is missing or not one of its values (fail closed).
 */
export function mayAct(warrant: WarrantView | Warrant, action: Action, riskPolicy: RiskPolicy = {}): Decision {
  const w = axesOf(warrant);
  if (typeof action !== 'object' || action === null) throw new InvalidAction('action must be an object', '$.action');
  const risk = action.risk ?? 'low';
  if (typeof risk !== 'string' || !RISKS.has(risk)) throw new InvalidAction(`risk must be low, medium or high, got ${JSON.stringify(risk)}`, '$.action.risk');
  const reversible = action.reversible ?? true;
  if (typeof reversible !== 'boolean') throw new InvalidAction('reversible must be a boolean', '$.action.reversible');
  const requireAccepted = flag(riskPolicy, 'high_requires_accepted');
  const requireNoOpenConflict = flag(riskPolicy, 'high_requires_no_open_conflict');

  if (w.acceptance === 'UNACCEPTED') return 'DENY';
  if (risk === 'high') {
    if (w.currency === 'SUPERSEDED') return 'DENY';
    if (requireAccepted && w.acceptance !== 'ACCEPTED') return 'DENY';
    if (requireNoOpenConflict && w.conflict === 'OPEN') return 'DENY';
    if (!reversible && w.acceptance !== 'ACCEPTED') return 'DENY';
    if (w.sufficiency === 'DEGRADED' || w.currency === 'STALE') return 'REQUIRE_CONFIRMATION';
    return 'MAY_ACT';
  }
  if (w.currency === 'SUPERSEDED' || w.conflict === 'OPEN' || w.sufficiency === 'DEGRADED') return 'REQUIRE_CONFIRMATION';
  if (risk === 'medium' && (w.currency === 'STALE' || w.acceptance === 'TENTATIVE' || (!reversible && w.acceptance !== 'ACCEPTED'))) {
    return 'REQUIRE_CONFIRMATION';
  }
  return 'MAY_ACT';
}

function flag(policy: RiskPolicy, key: 'high_requires_accepted' | 'high_requires_no_open_conflict'): boolean {
  const v = policy?.[key];
  if (v === undefined) return true;
  if (typeof v !== 'boolean') throw new InvalidAction(`${key} must be a boolean`, `$.risk_policy.${key}`);
  return v;
}

const AXES: Record<'acceptance' | 'conflict' | 'currency' | 'sufficiency', ReadonlySet<string>> = {
  acceptance: new Set(['UNACCEPTED', 'TENTATIVE', 'ACCEPTED']),
  conflict: new Set(['NONE', 'OPEN', 'RESOLVED']),
  currency: new Set(['CURRENT', 'STALE', 'SUPERSEDED']),
  sufficiency: new Set(['SUFFICIENT', 'INSUFFICIENT', 'DEGRADED']),
};

// A gate must fail closed: an axis it cannot read is an error, never a default.
function axesOf(warrant: WarrantView | Warrant): Warrant {
  if (typeof warrant !== 'object' || warrant === null) throw new InvalidWarrant('warrant must be an object', '$.warrant');
  const nested = 'warrant' in warrant;
  const w = (nested ? warrant.warrant : warrant) as Warrant;
  const base = nested ? '$.warrant.warrant' : '$.warrant';
  if (typeof w !== 'object' || w === null) throw new InvalidWarrant('warrant axes must be an object', base);
  for (const [axis, values] of Object.entries(AXES)) {
    const v = (w as unknown as Record<string, unknown>)[axis];
    if (typeof v !== 'string' || !values.has(v)) throw new InvalidWarrant(`${axis} must be one of ${[...values].join(', ')}, got ${JSON.stringify(v)}`, `${base}.${axis}`);
  }
  return w;
}
