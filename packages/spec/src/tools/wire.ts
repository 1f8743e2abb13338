/**
 * The zod schemas of the EWP-0.2.0 wire types (docs/spec/protocol.md §3, §7, §9), built from the
 * vocabulary arrays of `@ewp/spec`. Each is tied to its type in `protocol.ts` in both directions at
 * compile time ({@link exactly}), so the type is declared once and the schema cannot drift from it.
 */
import { z } from 'zod/v4';
import {
  type Action,
  AXIS_VALUES,
  type Assertion,
  CHECK_RESULTS,
  type Conflict,
  CONFLICT_STATUSES,
  type EvidenceItem,
  type EvidenceView,
  LINEAGE_KINDS,
  type LineageEdge,
  POLARITIES,
  type Policy,
  PROTOCOL_VERSION,
  RISKS,
  type RiskPolicy,
  type SourceRef,
  type VerificationCheck,
  type Warrant,
  type WarrantView,
} from '../protocol.js';

/** `[]` when the schema's output type and `T` are assignable both ways; `[never]` (an argument nobody can pass) otherwise. */
type SameAs<S extends z.ZodType, T> = [z.output<S>] extends [T] ? ([T] extends [z.output<S>] ? [] : [mismatch: never]) : [mismatch: never];

/**
 * `schema`, which must describe exactly `T`: a schema whose output type and `T` differ either way
 * does not compile (the call then asks for an argument of type `never`).
 */
export function exactly<T>(): <S extends z.ZodType>(schema: S, ...check: SameAs<S, T>) => S {
  return <S extends z.ZodType>(schema: S, ..._check: SameAs<S, T>): S => schema;
}

const text = z.string();
const texts = z.array(text);

/** {@link SourceRef}. */
export const sourceRefSchema = exactly<SourceRef>()(
  z.object({
    source_id: text,
    lineage_id: text,
    origin_type: text,
    origin_locator: text,
    snapshot_id: text,
    content_hash: text,
    observed_at: text,
    extractor_id: text.nullable(),
    parent_source_id: text.nullable(),
  }),
);

/** {@link Assertion}. */
export const assertionSchema = exactly<Assertion>()(
  z.object({
    assertion_id: text,
    proposition_id: text,
    text,
    asserted_by: text,
    assertion_confidence: z.number(),
    source: sourceRefSchema,
    asserted_at: text,
  }),
);

/** {@link EvidenceItem}. */
export const evidenceItemSchema = exactly<EvidenceItem>()(
  z.object({
    evidence_id: text,
    proposition_id: text,
    polarity: z.enum(POLARITIES),
    source: sourceRefSchema,
    content: text,
    observed_at: text,
  }),
);

/** {@link VerificationCheck}. */
export const verificationCheckSchema = exactly<VerificationCheck>()(
  z.object({
    check_id: text,
    method: text,
    scope: text,
    source: sourceRefSchema,
    observed_at: text,
    result: z.enum(CHECK_RESULTS),
    subjects: texts,
  }),
);

/** {@link Conflict}. */
export const conflictSchema = exactly<Conflict>()(z.object({ conflict_id: text, proposition_ids: texts, status: z.enum(CONFLICT_STATUSES), note: text }));

/** {@link LineageEdge}. */
export const lineageEdgeSchema = exactly<LineageEdge>()(z.object({ from_id: text, to_id: text, kind: z.enum(LINEAGE_KINDS) }));

/** A decoded {@link EvidenceView} (docs/spec/protocol.md §3.3), every default applied. */
export const evidenceViewSchema = exactly<EvidenceView>()(
  z.object({
    proposition_id: text,
    view_id: text,
    assertions: z.array(assertionSchema),
    evidence: z.array(evidenceItemSchema),
    lineage: z.array(lineageEdgeSchema),
    conflicts: z.array(conflictSchema),
    checks: z.array(verificationCheckSchema),
    omitted_sources: texts,
    retrieval_scope: text,
    degraded: z.boolean(),
    freshness_policy_seconds: z.number().int(),
    adapter_meta: z.record(z.string(), z.unknown()),
    subjects: texts,
  }),
);

/** The five axes of a {@link Warrant} (its normative part). */
export const warrantAxesSchema = exactly<Omit<Warrant, 'strength' | 'rationale_codes'>>()(
  z.object({
    acceptance: z.enum(AXIS_VALUES.acceptance),
    conflict: z.enum(AXIS_VALUES.conflict),
    verification: z.enum(AXIS_VALUES.verification),
    currency: z.enum(AXIS_VALUES.currency),
    sufficiency: z.enum(AXIS_VALUES.sufficiency),
  }),
);

/** {@link Warrant}: the axes, and the non-normative strength and rationale codes. */
export const warrantSchema = exactly<Warrant>()(warrantAxesSchema.extend({ strength: z.number(), rationale_codes: texts }));

/** {@link WarrantView} (docs/spec/protocol.md §7). */
export const warrantViewSchema = exactly<WarrantView>()(
  z.object({
    protocol_version: z.literal(PROTOCOL_VERSION),
    proposition_id: text,
    view_id: text,
    policy_id: text,
    policy_version: text,
    evaluated_at: text,
    warrant: warrantSchema,
    supporting_evidence_ids: texts,
    opposing_evidence_ids: texts,
    independent_lineage_count: z.number().int(),
    checks: texts,
    freshest_check: text.nullable(),
    stale: z.boolean(),
    open_conflicts: texts,
    resolved_conflicts: texts,
    omitted_sources: texts,
    derived_from: texts,
    supersedes: texts,
    superseded_by: texts,
    falsification_conditions: texts,
  }),
);

/** {@link Policy}. */
export const policySchema = exactly<Policy>()(z.object({ policy_id: text, version: text }));

/** {@link Action} (docs/spec/protocol.md §9). */
export const actionSchema = exactly<Action>()(z.object({ action_id: text, kind: text, reversible: z.boolean().optional(), risk: z.enum(RISKS).optional() }));

/** {@link RiskPolicy} (docs/spec/protocol.md §9). */
export const riskPolicySchema = exactly<RiskPolicy>()(
  z.object({
    policy_id: text.optional(),
    version: text.optional(),
    high_requires_accepted: z.boolean().optional(),
    high_requires_no_open_conflict: z.boolean().optional(),
  }),
);
