/**
 * The write tools, present only when the operator passes an ingest capability: store a whole
 * EvidenceView, or append one evidence item (optionally with its assertion) or one check to the
 * latest snapshot. Trusted origins need `ingest_attestation: true`.
 */
import { type Assertion, decodeView, type EvidenceItem, type SourceRef, type VerificationCheck } from '@ewp/core';
import type { EvidenceStore, LedgerRecord } from '@ewp/ledger';
import { tool } from 'ai';
import { z } from 'zod';
import { type IngestCapability, requireAttestation } from './attestation.js';
import { attestationSchema, idSchema, orRefusal, sourceInputSchema } from './schemas.js';
import { refusal, refusing, ToolRefusalError } from './tool-refusal.js';

export interface IngestToolOptions {
  store: EvidenceStore;
  ingest: IngestCapability;
}

type SourceInput = z.infer<typeof sourceInputSchema>;

/** A SourceRef with the MCP contract's defaults; `content_hash` and `observed_at` must be non-empty. */
function buildSource(input: SourceInput | undefined, defaultId: string, path: string): SourceRef {
  if (!input?.content_hash) {
    throw new ToolRefusalError(refusal('EWP_REFUSE_MISSING_CONTENT_HASH', 'source.content_hash is required and must not be empty', `${path}.content_hash`));
  }
  if (!input.observed_at) {
    throw new ToolRefusalError(refusal('EWP_REFUSE_MISSING_OBSERVED_AT', 'source.observed_at is required and must not be empty', `${path}.observed_at`));
  }
  const sourceId = input.source_id ?? defaultId;
  return {
    source_id: sourceId,
    lineage_id: input.lineage_id ?? sourceId,
    origin_type: input.origin_type ?? 'extract',
    origin_locator: input.origin_locator ?? `ai-sdk:${sourceId}`,
    snapshot_id: input.snapshot_id ?? sourceId,
    content_hash: input.content_hash,
    observed_at: input.observed_at,
    extractor_id: input.extractor_id ?? null,
    parent_source_id: input.parent_source_id ?? null,
  };
}

export function viewPutTool({ store, ingest }: IngestToolOptions) {
  return tool({
    description:
      'Store an EvidenceView (EWP-0.2.0) as an immutable snapshot. Never store a warrant. Records with trusted origins need ingest_attestation: true.',
    inputSchema: z.object({
      view: z.record(z.string(), z.unknown()).describe('The EvidenceView object'),
      ingest_attestation: attestationSchema,
    }),
    outputSchema: orRefusal(
      z.object({
        stored: z.literal(true),
        status: z.enum(['stored', 'unchanged']),
        proposition_id: z.string(),
        view_id: z.string(),
        assertions: z.number(),
        checks: z.number(),
      }),
    ),
    execute: ({ view, ingest_attestation }) =>
      refusing(async () => {
        const decoded = decodeView(view);
        requireAttestation(decoded, ingest_attestation, ingest);
        const put = await store.put(decoded);
        return {
          stored: true as const,
          status: put.status,
          proposition_id: put.proposition_id,
          view_id: put.view_id,
          assertions: decoded.assertions.length,
          checks: decoded.checks.length,
        };
      }),
  });
}

/** Append records to the latest snapshot after the attestation check; refusals name the field. */
async function appendRecords(
  store: EvidenceStore,
  ingest: IngestCapability,
  propositionId: string,
  records: { assertions: Assertion[]; evidence: EvidenceItem[]; checks: VerificationCheck[] },
  attestation: boolean | undefined,
  newViewId: string | undefined,
) {
  requireAttestation(records, attestation, ingest);
  const ledgerRecords: LedgerRecord[] = [
    ...records.assertions.map((record): LedgerRecord => ({ kind: 'assertion', record })),
    ...records.evidence.map((record): LedgerRecord => ({ kind: 'evidence', record })),
    ...records.checks.map((record): LedgerRecord => ({ kind: 'check', record })),
  ];
  return store.extend(propositionId, ledgerRecords, newViewId === undefined ? {} : { newViewId });
}

export function evidenceRecordTool({ store, ingest }: IngestToolOptions) {
  return tool({
    description:
      'Append one evidence item (supports or opposes the proposition) to its latest snapshot, and optionally the assertion it makes. Polarity is never assumed.',
    inputSchema: z.object({
      proposition_id: idSchema,
      evidence: z.object({
        evidence_id: idSchema,
        polarity: z.enum(['supports', 'opposes']),
        content: z.string(),
        observed_at: z.string().describe('When it was observed, ISO-8601'),
        source: sourceInputSchema.optional(),
      }),
      text: z.string().optional().describe('The claim this evidence states; adds an assertion when non-empty'),
      assertion_id: z.string().min(1).optional(),
      asserted_by: z.string().optional(),
      assertion_confidence: z.number().optional(),
      new_view_id: z.string().min(1).optional(),
      ingest_attestation: attestationSchema,
    }),
    outputSchema: orRefusal(z.object({ recorded: z.literal(true), evidence_id: z.string(), view_id: z.string(), count: z.number() })),
    execute: (input) =>
      refusing(async () => {
        const e = input.evidence;
        const source = buildSource(e.source, e.evidence_id, '$.evidence.source');
        const evidence: EvidenceItem = {
          evidence_id: e.evidence_id,
          proposition_id: input.proposition_id,
          polarity: e.polarity,
          source,
          content: e.content,
          observed_at: e.observed_at,
        };
        const assertions: Assertion[] =
          input.text !== undefined && input.text !== ''
            ? [
                {
                  assertion_id: input.assertion_id ?? `${e.evidence_id}:a`,
                  proposition_id: input.proposition_id,
                  text: input.text,
                  asserted_by: input.asserted_by ?? 'ai-sdk',
                  assertion_confidence: input.assertion_confidence ?? 0.5,
                  source,
                  asserted_at: e.observed_at,
                },
              ]
            : [];
        const records = { assertions, evidence: [evidence], checks: [] };
        const put = await appendRecords(store, ingest, input.proposition_id, records, input.ingest_attestation, input.new_view_id);
        const view = (await store.get(input.proposition_id, put.view_id))!;
        return { recorded: true as const, evidence_id: e.evidence_id, view_id: put.view_id, count: view.evidence.length };
      }),
  });
}

export function checkRecordTool({ store, ingest }: IngestToolOptions) {
  return tool({
    description:
      'Append one verification check (a method applied to the proposition, with a result) to its latest snapshot. Whether it verifies depends on its method and origin, never on this call.',
    inputSchema: z.object({
      proposition_id: idSchema,
      check: z.object({
        check_id: idSchema,
        method: z.string().min(1).describe('e.g. tool_observation, document_quote, human_review, inference'),
        scope: z.string().optional(),
        observed_at: z.string().describe('When the check was made, ISO-8601'),
        result: z.enum(['supports', 'opposes', 'inconclusive']),
        subjects: z.array(z.string().min(1)).optional(),
        source: sourceInputSchema.optional(),
      }),
      new_view_id: z.string().min(1).optional(),
      ingest_attestation: attestationSchema,
    }),
    outputSchema: orRefusal(z.object({ recorded: z.literal(true), check_id: z.string(), view_id: z.string(), count: z.number() })),
    execute: (input) =>
      refusing(async () => {
        const c = input.check;
        const record: VerificationCheck = {
          check_id: c.check_id,
          method: c.method,
          scope: c.scope ?? input.proposition_id,
          source: buildSource(c.source, `check:${c.check_id}`, '$.check.source'),
          observed_at: c.observed_at,
          result: c.result,
          subjects: c.subjects ?? [],
        };
        const put = await appendRecords(
          store,
          ingest,
          input.proposition_id,
          { assertions: [], evidence: [], checks: [record] },
          input.ingest_attestation,
          input.new_view_id,
        );
        const view = (await store.get(input.proposition_id, put.view_id))!;
        return { recorded: true as const, check_id: c.check_id, view_id: put.view_id, count: view.checks.length };
      }),
  });
}
