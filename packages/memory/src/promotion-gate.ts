/**
 * The promotion gate: the one place where salience could turn into authority (importance, a pinned
 * block, the persona file). A memory already promoted is skipped; an inference or hypothesis with fewer
 * distinct independent sources than `min_independent_sources` is refused; anything else is promoted.
 * Pure: the caller records the decision as a PROMO_GATE event and applies it to salience.
 */
import type { MemoryConfig } from './config.js';
import { type EpistemicClass, isClaimClass } from './epistemic-class.js';
import type { GateReason } from './memory-events.js';

/** What the gate decides for one memory. */
export type GateDecision = { decision: 'skip' } | { decision: 'allowed' | 'blocked'; reason: GateReason };

/** The gate's decision for a memory of `cls` with `distinctSources`, already `promoted` or not. */
export function promotionDecision(
  cls: EpistemicClass,
  distinctSources: number,
  promoted: boolean,
  config: Pick<MemoryConfig, 'gate_promotion' | 'min_independent_sources'>,
): GateDecision {
  if (promoted) return { decision: 'skip' };
  if (!config.gate_promotion) return { decision: 'allowed', reason: 'promotion_allowed:gate_off' };
  if (isClaimClass(cls) && distinctSources < config.min_independent_sources) return { decision: 'blocked', reason: 'promotion_blocked:no_evidence' };
  return { decision: 'allowed', reason: 'promotion_allowed' };
}
