/** The evidence layer's vocabulary: what a memory is, epistemically. */

/** The epistemic classes, in the order they are documented: raw observation, observation linked as evidence, a conclusion, a guess. */
export const EPISTEMIC_CLASSES = Object.freeze(['observation', 'evidence', 'inference', 'hypothesis'] as const);

/** What a memory is, epistemically. */
export type EpistemicClass = (typeof EPISTEMIC_CLASSES)[number];
