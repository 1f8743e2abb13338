/**
 * The promotion gate: the one place where salience could turn into authority (importance, a pinned
 * block, the persona file). A memory already promoted is skipped; an inference or hypothesis with fewer
 * distinct independent sources than `min_independent_sources` is refused; anything else is promoted.
 * Pure: the caller records the decision as a PROMO_GATE event (promotion.ts) and applies it to salience.
 * Not the action gate of @ewp/tools (`GateDecision`, `decideGate`): this one decides promotions.
 */
import type { MemoryConfig } from './config.js';
import { type EpistemicClass, isClaimClass } from './epistemic-class.js';

/** What the gate may decide for a memory; `skip` (already promoted) is never recorded. */
export const PROMOTION_DECISIONS = Object.freeze(['allowed', 'blocked', 'skip'] as const);
/** One of {@link PROMOTION_DECISIONS}. */
export type PromotionDecisionKind = (typeof PROMOTION_DECISIONS)[number];
/** A decision a PROMO_GATE event records. */
export type RecordedPromotionDecision = Exclude<PromotionDecisionKind, 'skip'>;

/** Why the gate decided as it did: the `reason` of a PROMO_GATE event. */
export const PROMOTION_REASONS = Object.freeze(['promotion_allowed', 'promotion_allowed:gate_off', 'promotion_blocked:no_evidence'] as const);
/** One of {@link PROMOTION_REASONS}. */
export type PromotionReason = (typeof PROMOTION_REASONS)[number];

/** What the gate decides for one memory. */
export type PromotionDecision = { decision: 'skip' } | { decision: RecordedPromotionDecision; reason: PromotionReason };

/** The gate's decision for a memory of `cls` with `distinctSources`, already `promoted` or not. */
export function decidePromotion(
  cls: EpistemicClass,
  distinctSources: number,
  promoted: boolean,
  config: Pick<MemoryConfig, 'gate_promotion' | 'min_independent_sources'>,
): PromotionDecision {
  if (promoted) return { decision: 'skip' };
  if (!config.gate_promotion) return { decision: 'allowed', reason: 'promotion_allowed:gate_off' };
  if (isClaimClass(cls) && distinctSources < config.min_independent_sources) return { decision: 'blocked', reason: 'promotion_blocked:no_evidence' };
  return { decision: 'allowed', reason: 'promotion_allowed' };
}

/** A memory's promotion state as the chain's PROMO_GATE events set it. */
export interface PromotionState {
  /** An `allowed` PROMO_GATE event for it is in the chain. */
  promoted: boolean;
  /**
   * The evidence state (`<class>:<view_id>`) of its latest `blocked` PROMO_GATE event, until one allows
   * it: the gate is not asked again on the same state (the chain already has that decision).
   */
  blocked_at_state: string | null;
}

/**
 * What one PROMO_GATE event says of a memory, applied to its promotion state: the one rule for a gate
 * decision read back from the chain and for one just written.
 */
export function applyPromotionEvent(m: PromotionState, body: { decision: RecordedPromotionDecision; class: EpistemicClass; view_id: string }): void {
  if (body.decision === 'allowed') {
    m.promoted = true;
    m.blocked_at_state = null;
  } else if (!m.promoted) {
    m.blocked_at_state = `${body.class}:${body.view_id}`;
  }
}
