/**
 * The four epistemic classes of a memory and the one rule about them: only observations and evidence
 * may support or refute anything (docs/spec/evidence-layer.md, classes).
 */

import { EPISTEMIC_CLASSES, type EpistemicClass } from '@ewp/core';

export { EPISTEMIC_CLASSES, type EpistemicClass };

/** True for a class name. */
export function isEpistemicClass(value: unknown): value is EpistemicClass {
  return typeof value === 'string' && (EPISTEMIC_CLASSES as readonly string[]).includes(value);
}

/** True when a memory of this class may be linked as support or refutation: observations and evidence only. */
export function maySupport(cls: EpistemicClass): boolean {
  return cls === 'observation' || cls === 'evidence';
}

/** A claim (inference or hypothesis) is stored as an assertion; the other classes as evidence. */
export function isClaimClass(cls: EpistemicClass): cls is 'inference' | 'hypothesis' {
  return !maySupport(cls);
}
