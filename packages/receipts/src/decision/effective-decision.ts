import type { Decision } from '@ewp/core';
import type { RecoveryAction } from '../checkpoint/verification.js';

const RANK: Readonly<Record<Decision, number>> = { DENY: 0, REQUIRE_CONFIRMATION: 1, MAY_ACT: 2 };

/** The less permissive of two decisions (DENY < REQUIRE_CONFIRMATION < MAY_ACT). */
export function minDecision(a: Decision, b: Decision): Decision {
  return RANK[a] <= RANK[b] ? a : b;
}

/** A recovery action as an upper bound on `mayAct` (docs/spec/receipts.md §12.6): ALLOW → MAY_ACT, REVIEW_REQUIRED → REQUIRE_CONFIRMATION, BLOCK → DENY. */
export function recoveryBound(action: RecoveryAction): Decision {
  return action === 'ALLOW' ? 'MAY_ACT' : action === 'REVIEW_REQUIRED' ? 'REQUIRE_CONFIRMATION' : 'DENY';
}

/**
 * The effective decision (docs/spec/receipts.md §12.6): the minimum of `mayAct` and the recovery gate, so the gate
 * can only make an action less permitted, never more. No gate (null) leaves `mayAct` as it is.
 */
export function effectiveDecision(mayActDecision: Decision, recoveryGate: Decision | null): Decision {
  return recoveryGate === null ? mayActDecision : minDecision(mayActDecision, recoveryGate);
}
