/**
 * The eight `ewp_*` warrant tools: evaluate, store and read evidence views, record checks and
 * evidence, gate an action, and list what is stored. Their inputs describe the arguments to models and
 * clients; `@ewp/tools` reads them with its own decoders, so every malformed value gets its own code.
 */
import { z } from 'zod/v4';
import { DECISIONS, POLICY_ID, POLICY_VERSION, RISKS, CHECK_RESULTS, POLARITIES } from '../protocol.js';
import { FIELD_LIMITS } from '../field-limits.js';
import { epistemicClass, idArg, idList, instantArg, text } from './shared.js';
import { evidenceViewSchema, warrantAxesSchema } from './wire.js';

const attestation = z.boolean().describe('Ingest pipeline only: true declares that trusted origins (tool, document, human, api, vendor, sensor) are genuine.');

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

const axes = warrantAxesSchema.shape;

/** The `ewp_*` warrant tools, in `tools/list` order. */
export const EWP_TOOL_SPECS = {
  ewp_warrant_now: {
    name: 'ewp_warrant_now',
    title: 'Evaluate warrant now',
    description:
      'Compute the EWP-0.2.0 WarrantView (acceptance, conflict, verification, currency, sufficiency) of a stored proposition ' +
      '(proposition_id, optional view_id) or of an inline view, at evaluated_at. Inline views are untrusted: their trusted ' +
      'origins are demoted to inline:<origin>. Read-only.',
    role: 'read',
    deterministic: true,
    input: z.object({
      evaluated_at: instantArg,
      proposition_id: idArg.optional(),
      view_id: idArg.optional(),
      view: viewArg.optional().describe('Inline view; evaluated with trusted origins demoted to inline:<origin> unless attested by the ingest role'),
      policy_id: z.literal(POLICY_ID).optional(),
      policy_version: z.literal(POLICY_VERSION).optional(),
      ingest_attestation: attestation.optional(),
    }),
    output: z.object({
      protocol_version: text,
      proposition_id: text,
      view_id: text,
      policy_id: text,
      policy_version: text,
      evaluated_at: text,
      warrant: warrantAxesSchema,
      independent_lineage_count: z.number().int(),
      supporting_evidence_ids: idList,
      opposing_evidence_ids: idList,
      omitted_sources: idList,
      stale: z.boolean(),
      rationale_codes: idList,
      inline_origins_demoted: idList.optional(),
      note: text,
    }),
  },
  ewp_evidence_view_put: {
    name: 'ewp_evidence_view_put',
    title: 'Store an evidence view',
    description:
      'Store an EvidenceView as an immutable (proposition_id, view_id) snapshot (pass it as `view`, or its fields as the arguments). ' +
      'A missing view_id becomes the content-derived id; an identical re-put is a no-op; a changed snapshot or reused record id is ' +
      'refused. Needs the server-side ingest role; trusted origins need ingest_attestation: true. WarrantViews are never stored.',
    role: 'ingest',
    input: z.looseObject({ view: viewArg.optional(), ingest_attestation: attestation.optional() }),
    output: z.object({
      stored: z.literal(true),
      status: z.enum(['stored', 'unchanged']),
      proposition_id: text,
      view_id: text,
      assertions: z.number().int(),
      checks: z.number().int(),
    }),
  },
  ewp_evidence_view_get: {
    name: 'ewp_evidence_view_get',
    title: 'Read a stored evidence view',
    description: 'Read the latest stored EvidenceView of a proposition, or exactly the snapshot view_id. Evidence only: no warrant.',
    role: 'read',
    deterministic: true,
    input: z.object({ proposition_id: idArg, view_id: idArg.optional() }),
    output: evidenceViewSchema,
  },
  ewp_check_record: {
    name: 'ewp_check_record',
    title: 'Record a verification check',
    description:
      'Append one verification check to the latest snapshot of a proposition, committing a new snapshot. check: check_id, ' +
      'method (e.g. tool_observation, human_review, inference), result (supports|opposes|inconclusive), observed_at, optional ' +
      'scope, subjects and source (content_hash and observed_at required). Needs the ingest role; trusted origins need ingest_attestation: true.',
    role: 'ingest',
    input: z.object({
      proposition_id: idArg,
      check: z.looseObject({
        check_id: idArg,
        method: text.describe('e.g. tool_observation, human_review, document_quote, inference'),
        scope: text.optional(),
        observed_at: instantArg,
        result: z.enum(CHECK_RESULTS),
        subjects: z.array(text).optional(),
        source: sourceArg,
      }),
      new_view_id: idArg.optional(),
      ingest_attestation: attestation.optional(),
    }),
    output: z.object({ recorded: z.literal(true), check_id: text, view_id: text, count: z.number().int() }),
  },
  ewp_evidence_record: {
    name: 'ewp_evidence_record',
    title: 'Record evidence',
    description:
      'Append one evidence item (evidence_id, polarity supports|opposes, content, observed_at, source) to the latest snapshot of ' +
      'a proposition, committing a new snapshot. With a non-empty `text`, an assertion from the same source is recorded too. ' +
      'Polarity is never assumed. Needs the ingest role; trusted origins need ingest_attestation: true.',
    role: 'ingest',
    input: z.object({
      proposition_id: idArg,
      evidence: z.looseObject({
        evidence_id: idArg,
        polarity: z.enum(POLARITIES).describe('required, never assumed'),
        content: text.optional(),
        observed_at: instantArg,
        source: sourceArg,
      }),
      text: text.optional().describe('when non-empty, an assertion with this text is recorded too'),
      assertion_id: idArg.optional(),
      asserted_by: text.optional(),
      assertion_confidence: z.number().optional(),
      new_view_id: idArg.optional(),
      ingest_attestation: attestation.optional(),
    }),
    output: z.object({
      recorded: z.literal(true),
      evidence_id: text,
      assertion_id: text.optional(),
      view_id: text,
      count: z.number().int(),
    }),
  },
  ewp_may_act: {
    name: 'ewp_may_act',
    title: 'May the agent act?',
    description:
      'Decide MAY_ACT, REQUIRE_CONFIRMATION or DENY for an action {risk: low|medium|high, reversible: boolean} that relies on a ' +
      'proposition. The server evaluates the latest stored snapshot at its own clock; inline views and client-supplied warrants ' +
      'are refused. A given evaluated_at must be within 300 s of the server clock; a given view_id must be the latest snapshot. ' +
      'For a caller with the ingest role the decision is recorded; a recorded MAY_ACT claims one execution of its call (call_id, your own ' +
      'id of the action call, or by default this request): act once, then report the outcome with ewp_decision_outcome.',
    role: 'read',
    input: z.object({
      proposition_id: idArg,
      action: z.looseObject({
        risk: z.enum(RISKS),
        reversible: z.boolean(),
        action_id: idArg.optional(),
        kind: text.max(FIELD_LIMITS.kind).optional(),
      }),
      view_id: idArg.optional().describe('must be the latest snapshot id if given'),
      evaluated_at: instantArg.optional().describe('sanity check only: must be within 300 s of the server clock'),
      risk_policy: z
        .object({ high_requires_accepted: z.boolean().optional(), high_requires_no_open_conflict: z.boolean().optional() })
        .optional()
        .describe('operator (ingest role) only'),
      call_id: idArg
        .optional()
        .describe(
          "your own id of the action call this decision gates (e.g. the host's tool-use id): a MAY_ACT claims that call once; default the request's id",
        ),
    }),
    output: z.object({
      decision: z.enum(DECISIONS),
      proposition_id: text,
      view_id: text,
      evaluated_at: text,
      acceptance: axes.acceptance,
      conflict: axes.conflict,
      verification: axes.verification,
      currency: axes.currency,
      sufficiency: axes.sufficiency,
      risk_policy: z.object({ policy_id: text, version: text }),
      decision_id: text.nullable().describe('the recorded decision (null when nothing was recorded: see recorded and why)'),
      recorded: z.boolean().describe('whether the decision was appended to the ledger (only for a caller with the ingest role on a writable ledger)'),
      why: text.optional().describe('why the decision was not recorded'),
      call_id: text.optional().describe('the call the recorded decision names (report its outcome with ewp_decision_outcome)'),
      claimed: z.boolean().optional().describe('a recorded MAY_ACT claimed the one execution of its call: run it, then report the outcome'),
      rule: text.describe('the gate rule that decided mayAct (no_evidence when nothing is stored)'),
      held_until_reevaluated: idList.describe('propositions to re-evaluate before this action may proceed (empty unless held)'),
    }),
  },
  ewp_memory_context: {
    name: 'ewp_memory_context',
    title: 'Memory context with warrant',
    description:
      'Before relying on a remembered claim, get its warrant (five axes), the supporting and opposing evidence ids, the checks ' +
      'with their classes, and warnings to say out loud (conflict OPEN, DEGRADED, STALE, SUPERSEDED, opposing checks, not accepted). ' +
      'evaluated_at defaults to the server clock. Read-only.',
    role: 'read',
    input: z.object({
      proposition_id: idArg,
      evaluated_at: instantArg.optional().describe('default: the server clock'),
      view_id: idArg.optional(),
      query: text.optional(),
    }),
    output: z.object({
      proposition_id: text,
      view_id: text,
      query: text.nullable(),
      evaluated_at: text,
      warrant: warrantAxesSchema,
      supporting_evidence_ids: idList,
      opposing_evidence_ids: idList,
      omitted_sources: idList,
      checks: z.array(
        z.object({
          check_id: text,
          method: text,
          result: z.enum(CHECK_RESULTS),
          observed_at: text,
          origin_type: text,
          class: axes.verification,
        }),
      ),
      independent_lineage_count: z.number().int(),
      warnings: idList,
      persona: z
        .object({
          memory: text,
          class: epistemicClass,
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
  },
  ewp_list_propositions: {
    name: 'ewp_list_propositions',
    title: 'List stored propositions',
    description:
      'List stored propositions, newest snapshot first, with their latest view id, up to five assertion texts and the snapshot ' +
      'count. query: case-insensitive substring of the id or an assertion text; limit 1-500 (default 50); a page also stops at 64 KiB, ' +
      'and next_cursor (null on the last page) passed as cursor gives the next one. Discovery only: no warrant.',
    role: 'read',
    deterministic: true,
    input: z.object({
      query: text.optional().describe('case-insensitive substring of the id or an assertion text'),
      limit: z.number().int().min(1).max(500).optional(),
      cursor: text.optional().describe("a previous page's next_cursor: the page after it"),
    }),
    output: z.object({
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
  },
} as const;
