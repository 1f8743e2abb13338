/**
 * The zod schemas of every tool's input and result: the one source of the tools' types and of
 * the JSON Schema every binding advertises ({@link inputJsonSchema}, {@link outputJsonSchema}).
 * Inputs describe the arguments to models and clients; the tool's own decoder reads them
 * (tool-arguments.ts) so every malformed value gets its own `EWP_*` code and JSON path.
 */
import { AXIS_VALUES, DECISIONS, FIELD_LIMITS, RISKS, type SourceRef } from '@ewp/core';
import { z } from 'zod/v4';
import { EWP_TOOL_CODES } from './refusal.js';

const idArg = z.union([z.string().min(1).max(FIELD_LIMITS.id), z.number()]);
const text = z.string();
const attestation = z.boolean().describe('Ingest pipeline only: true declares that trusted origins (tool, document, human, api, vendor, sensor) are genuine.');

export const axes = z.object({
  acceptance: z.enum(AXIS_VALUES.acceptance),
  conflict: z.enum(AXIS_VALUES.conflict),
  verification: z.enum(AXIS_VALUES.verification),
  currency: z.enum(AXIS_VALUES.currency),
  sufficiency: z.enum(AXIS_VALUES.sufficiency),
});

const sourceRef = z.object({
  source_id: text,
  lineage_id: text,
  origin_type: text,
  origin_locator: text,
  snapshot_id: text,
  content_hash: text,
  observed_at: text,
  extractor_id: z.string().nullable(),
  parent_source_id: z.string().nullable(),
}) satisfies z.ZodType<SourceRef>;

/** A decoded EvidenceView (docs/spec/protocol.md §3.3). */
const evidenceView = z.object({
  proposition_id: text,
  view_id: text,
  assertions: z.array(
    z.object({
      assertion_id: text,
      proposition_id: text,
      text,
      asserted_by: text,
      assertion_confidence: z.number(),
      source: sourceRef,
      asserted_at: text,
    }),
  ),
  evidence: z.array(
    z.object({
      evidence_id: text,
      proposition_id: text,
      polarity: z.enum(['supports', 'opposes']),
      source: sourceRef,
      content: text,
      observed_at: text,
    }),
  ),
  lineage: z.array(z.object({ from_id: text, to_id: text, kind: z.enum(['derived_from', 'supersedes', 'superseded_by', 'parent_source']) })),
  conflicts: z.array(z.object({ conflict_id: text, proposition_ids: z.array(text), status: z.enum(['open', 'resolved']), note: text })),
  checks: z.array(
    z.object({
      check_id: text,
      method: text,
      scope: text,
      source: sourceRef,
      observed_at: text,
      result: z.enum(['supports', 'opposes', 'inconclusive']),
      subjects: z.array(text),
    }),
  ),
  omitted_sources: z.array(text),
  retrieval_scope: text,
  degraded: z.boolean(),
  freshness_policy_seconds: z.number().int(),
  adapter_meta: z.record(z.string(), z.unknown()),
  subjects: z.array(text),
});

/** Input form of a view: decoded and validated by the server (docs/spec/protocol.md §4), so only its outline is advertised. */
const viewArg = z
  .looseObject({ proposition_id: z.string(), view_id: idArg.optional() })
  .describe('An EvidenceView (EWP-0.2.0 docs/spec/protocol.md §3.3): proposition_id, assertions, evidence, checks, conflicts, lineage, ...');

const sourceArg = z
  .looseObject({
    source_id: idArg.optional(),
    lineage_id: text.optional(),
    origin_type: text.optional().describe('default "extract"; trusted origins need ingest_attestation'),
    origin_locator: text.optional(),
    snapshot_id: text.optional(),
    content_hash: text.describe('required'),
    observed_at: text.describe('required'),
    extractor_id: text.optional(),
    parent_source_id: text.optional(),
  })
  .describe('Where the record came from; content_hash and observed_at are required.');

const evaluatedAtArg = text.describe('ISO 8601 instant, e.g. 2026-09-21T21:00:00Z');

export const inputs = {
  ewp_warrant_now: z.object({
    evaluated_at: evaluatedAtArg,
    proposition_id: idArg.optional(),
    view_id: idArg.optional(),
    view: viewArg.optional().describe('Inline view; evaluated with trusted origins demoted to inline:<origin> unless attested by the ingest role'),
    policy_id: z.literal('reference-v2').optional(),
    policy_version: z.literal('reference-v2').optional(),
    ingest_attestation: attestation.optional(),
  }),
  ewp_evidence_view_put: z.looseObject({ view: viewArg.optional(), ingest_attestation: attestation.optional() }),
  ewp_evidence_view_get: z.object({ proposition_id: idArg, view_id: idArg.optional() }),
  ewp_check_record: z.object({
    proposition_id: idArg,
    check: z.looseObject({
      check_id: idArg,
      method: text.describe('e.g. tool_observation, human_review, document_quote, inference'),
      scope: text.optional(),
      observed_at: evaluatedAtArg,
      result: z.enum(['supports', 'opposes', 'inconclusive']),
      subjects: z.array(text).optional(),
      source: sourceArg,
    }),
    new_view_id: idArg.optional(),
    ingest_attestation: attestation.optional(),
  }),
  ewp_evidence_record: z.object({
    proposition_id: idArg,
    evidence: z.looseObject({
      evidence_id: idArg,
      polarity: z.enum(['supports', 'opposes']).describe('required, never assumed'),
      content: text.optional(),
      observed_at: evaluatedAtArg,
      source: sourceArg,
    }),
    text: text.optional().describe('when non-empty, an assertion with this text is recorded too'),
    assertion_id: idArg.optional(),
    asserted_by: text.optional(),
    assertion_confidence: z.number().optional(),
    new_view_id: idArg.optional(),
    ingest_attestation: attestation.optional(),
  }),
  ewp_may_act: z.object({
    proposition_id: idArg,
    action: z.looseObject({
      risk: z.enum(RISKS),
      reversible: z.boolean(),
      action_id: idArg.optional(),
      kind: text.max(FIELD_LIMITS.kind).optional(),
    }),
    view_id: idArg.optional().describe('must be the latest snapshot id if given'),
    evaluated_at: evaluatedAtArg.optional().describe('sanity check only: must be within 300 s of the server clock'),
    risk_policy: z
      .object({ high_requires_accepted: z.boolean().optional(), high_requires_no_open_conflict: z.boolean().optional() })
      .optional()
      .describe('operator (ingest role) only'),
    call_id: idArg
      .optional()
      .describe("your own id of the action call this decision gates (e.g. the host's tool-use id): a MAY_ACT claims that call once; default the request's id"),
  }),
  ewp_memory_context: z.object({
    proposition_id: idArg,
    evaluated_at: evaluatedAtArg.optional().describe('default: the server clock'),
    view_id: idArg.optional(),
    query: text.optional(),
  }),
  ewp_list_propositions: z.object({
    query: text.optional().describe('case-insensitive substring of the id or an assertion text'),
    limit: z.number().int().min(1).max(500).optional(),
    cursor: text.optional().describe("a previous page's next_cursor: the page after it"),
  }),
} as const;

const idList = z.array(text);

export const outputs = {
  ewp_warrant_now: z.object({
    protocol_version: text,
    proposition_id: text,
    view_id: text,
    policy_id: text,
    policy_version: text,
    evaluated_at: text,
    warrant: axes,
    independent_lineage_count: z.number().int(),
    supporting_evidence_ids: idList,
    opposing_evidence_ids: idList,
    omitted_sources: idList,
    stale: z.boolean(),
    rationale_codes: idList,
    inline_origins_demoted: idList.optional(),
    note: text,
  }),
  ewp_evidence_view_put: z.object({
    stored: z.literal(true),
    status: z.enum(['stored', 'unchanged']),
    proposition_id: text,
    view_id: text,
    assertions: z.number().int(),
    checks: z.number().int(),
  }),
  ewp_evidence_view_get: evidenceView,
  ewp_check_record: z.object({ recorded: z.literal(true), check_id: text, view_id: text, count: z.number().int() }),
  ewp_evidence_record: z.object({
    recorded: z.literal(true),
    evidence_id: text,
    assertion_id: text.optional(),
    view_id: text,
    count: z.number().int(),
  }),
  ewp_may_act: z.object({
    decision: z.enum(DECISIONS),
    proposition_id: text,
    view_id: text,
    evaluated_at: text,
    acceptance: axes.shape.acceptance,
    conflict: axes.shape.conflict,
    verification: axes.shape.verification,
    currency: axes.shape.currency,
    sufficiency: axes.shape.sufficiency,
    risk_policy: z.object({ policy_id: text, version: text }),
    decision_id: text.nullable().describe('the recorded decision (null when nothing was recorded: see recorded and why)'),
    recorded: z.boolean().describe('whether the decision was appended to the ledger (only for a caller with the ingest role on a writable ledger)'),
    why: text.optional().describe('why the decision was not recorded'),
    call_id: text.optional().describe('the call the recorded decision names (report its outcome with ewp_decision_outcome)'),
    claimed: z.boolean().optional().describe('a recorded MAY_ACT claimed the one execution of its call: run it, then report the outcome'),
    rule: text.describe('the gate rule that decided mayAct (no_evidence when nothing is stored)'),
    held_until_reevaluated: idList.describe('propositions to re-evaluate before this action may proceed (empty unless held)'),
  }),
  ewp_memory_context: z.object({
    proposition_id: text,
    view_id: text,
    query: text.nullable(),
    evaluated_at: text,
    warrant: axes,
    supporting_evidence_ids: idList,
    opposing_evidence_ids: idList,
    omitted_sources: idList,
    checks: z.array(
      z.object({
        check_id: text,
        method: text,
        result: z.enum(['supports', 'opposes', 'inconclusive']),
        observed_at: text,
        origin_type: text,
        class: axes.shape.verification,
      }),
    ),
    independent_lineage_count: z.number().int(),
    warnings: idList,
    persona: z
      .object({
        memory: text,
        class: z.enum(['observation', 'evidence', 'inference', 'hypothesis']),
        confidence: z.number().int().min(0).max(100),
        support_count: z.number().int(),
        refute_count: z.number().int(),
        distinct_sources: z.number().int(),
        salience: z.object({ recall_count: z.number(), energy: z.number(), importance: z.number(), promoted: z.boolean() }),
        note: text,
      })
      .nullable()
      .describe('for a memory of the evidence layer (mem:<hash>): its class and confidence beside the warrant, and its salience; null otherwise'),
    note: text,
  }),
  ewp_list_propositions: z.object({
    propositions: z.array(
      z.object({
        proposition_id: text,
        latest_view_id: text,
        assertions: idList.optional(),
        snapshots: z.number().int().optional(),
        truncated: z.boolean().optional().describe('the row was shortened to fit the page (long texts cut, or only its ids kept)'),
        bytes: z.number().int().optional().describe('the size of a row answered by its ids only'),
      }),
    ),
    next_cursor: text.nullable().describe('pass as cursor for the next page; null on the last page (a page stops at limit rows or 64 KiB)'),
    note: text,
  }),
} as const;

/** What a refused call returns in every binding: `{ error: { code, message, path? } }`. */
export const refusalSchema = z.object({
  error: z.object({ code: z.enum(EWP_TOOL_CODES), message: text, path: text.optional() }),
});

/** A tool's name. */
export type EwpToolName = keyof typeof inputs;

/** A JSON Schema object (draft-07) with `type: "object"` at the top, as tool protocols require. */
export type ObjectJsonSchema = { type: 'object'; [key: string]: unknown };

/** JSON Schema (draft-07, which the MCP client's validator speaks) of a zod schema. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): ObjectJsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/** The JSON Schema of a tool's arguments, derived from its zod input schema. */
export function inputJsonSchema(name: EwpToolName): ObjectJsonSchema {
  return jsonSchemaOf(inputs[name], 'input');
}

/** The JSON Schema of a tool's result, derived from its zod output schema. */
export function outputJsonSchema(name: EwpToolName): ObjectJsonSchema {
  return jsonSchemaOf(outputs[name], 'output');
}
