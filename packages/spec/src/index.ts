/**
 * @ewp/spec — the contracts every other package builds on, and nothing else: the EWP-0.2.0 wire types,
 * every vocabulary as one frozen `as const` array (its type derived from it), the table of field limits
 * and the evidence layer's classes. No dependencies and no behaviour: the kernel (`@ewp/core`), the
 * stores and the bindings import their lists from here, so a value is spelled once.
 * @packageDocumentation
 */
export * from './protocol.js';
export { FIELD_LIMITS, type FieldLimitKind, limitOfMember } from './field-limits.js';
export { EPISTEMIC_CLASSES, type EpistemicClass } from './evidence-layer.js';
// The refusal codes are plain vocabulary: here too, so a gate that refuses need not load the tool registry (zod).
export { EWP_TOOL_CODES, type EwpToolCode } from './tool-codes.js';
