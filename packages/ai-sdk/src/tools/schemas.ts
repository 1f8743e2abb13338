/** zod schemas of the tool inputs and outputs (what the model sees and what it gets back). */
import { z } from 'zod';
import { toolRefusalSchema } from './tool-refusal.js';

export const acceptanceSchema = z.enum(['UNACCEPTED', 'TENTATIVE', 'ACCEPTED']);
export const axesSchema = z.object({
  acceptance: acceptanceSchema,
  conflict: z.enum(['NONE', 'OPEN', 'RESOLVED']),
  verification: z.enum(['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN']),
  currency: z.enum(['CURRENT', 'STALE', 'SUPERSEDED']),
  sufficiency: z.enum(['SUFFICIENT', 'INSUFFICIENT', 'DEGRADED']),
});

/** The full WarrantView of SPEC §7 (normative identity and axes, plus the reference's diagnostics). */
export const warrantViewSchema = z.object({
  protocol_version: z.literal('EWP-0.2.0'),
  proposition_id: z.string(),
  view_id: z.string(),
  policy_id: z.string(),
  policy_version: z.string(),
  evaluated_at: z.string(),
  warrant: axesSchema.extend({ strength: z.number(), rationale_codes: z.array(z.string()) }),
  supporting_evidence_ids: z.array(z.string()),
  opposing_evidence_ids: z.array(z.string()),
  independent_lineage_count: z.number(),
  checks: z.array(z.string()),
  freshest_check: z.string().nullable(),
  stale: z.boolean(),
  open_conflicts: z.array(z.string()),
  resolved_conflicts: z.array(z.string()),
  omitted_sources: z.array(z.string()),
  derived_from: z.array(z.string()),
  supersedes: z.array(z.string()),
  superseded_by: z.array(z.string()),
  falsification_conditions: z.array(z.string()),
});

export const idSchema = z.string().min(1);
export const riskSchema = z.enum(['low', 'medium', 'high']);

export const actionInputSchema = z.object({
  action_id: z.string().optional().describe('Your id for the action'),
  kind: z.string().optional().describe('What the action does, e.g. "deploy"'),
  risk: riskSchema.describe('How bad it is if the proposition turns out false'),
  reversible: z.boolean().describe('Whether the action can be undone'),
});

/** A SourceRef as the record tools take it; defaults as in the MCP contract. */
export const sourceInputSchema = z.object({
  source_id: z.string().optional(),
  lineage_id: z.string().optional(),
  origin_type: z.string().optional().describe('Where it came from: tool, document, human, api, vendor, sensor (trusted: need attestation) or extract, turn, summary, …'),
  origin_locator: z.string().optional(),
  snapshot_id: z.string().optional(),
  content_hash: z.string().describe('Hash of the observed content (required, non-empty)'),
  observed_at: z.string().describe('When the source was observed, ISO-8601 (required, non-empty)'),
  extractor_id: z.string().nullable().optional(),
  parent_source_id: z.string().nullable().optional(),
});

export const attestationSchema = z
  .boolean()
  .optional()
  .describe('Set true only when the ingest pipeline vouches that trusted origins in this write are real');

/** A tool result: its success shape, or a typed refusal. */
export function orRefusal<T extends z.ZodType>(schema: T) {
  return z.union([schema, toolRefusalSchema]);
}
