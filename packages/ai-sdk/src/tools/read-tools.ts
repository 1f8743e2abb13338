/**
 * The read-side tools: evaluate a proposition, decide an action, and read a proposition's memory
 * context. Every result is computed from the latest stored evidence at the time of the call;
 * nothing the model sends can stand in for stored evidence or a warrant.
 */
import { decodeView, mayAct, REFERENCE_V2, type RiskPolicy, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { tool } from 'ai';
import { z } from 'zod';
import { demoteTrustedOrigins, type IngestCapability } from './attestation.js';
import { memoryWarnings } from './memory-context.js';
import { actionInputSchema, attestationSchema, axesSchema, idSchema, orRefusal, warrantViewSchema } from './schemas.js';
import { refusal, refusing, ToolRefusalError } from './tool-refusal.js';

export interface ReadToolOptions {
  store: EvidenceStore;
  now: () => Date;
  /** The operator's action policy for `ewp_may_act` (never taken from the model). */
  riskPolicy?: RiskPolicy;
  /** The ingest capability, if any: only with it can an inline view's trusted origins be attested. */
  ingest?: IngestCapability;
}

async function stored(store: EvidenceStore, propositionId: string, viewId?: string) {
  const view = await store.get(propositionId, viewId);
  if (view === undefined) {
    throw new ToolRefusalError(
      refusal(
        'EWP_REFUSE_MISSING_VIEW',
        viewId === undefined
          ? `no stored evidence for ${JSON.stringify(propositionId)}`
          : `no stored snapshot ${JSON.stringify(viewId)} of ${JSON.stringify(propositionId)}`,
      ),
    );
  }
  return view;
}

const warrantNowOutput = warrantViewSchema.extend({ note: z.string(), inline_origins_demoted: z.array(z.string()).optional() });

export function warrantNowTool({ store, now, ingest }: ReadToolOptions) {
  return tool({
    description:
      'Evaluate a proposition (EWP-0.2.0, policy reference-v2): five axes (acceptance, conflict, verification, currency, sufficiency) plus diagnostics. Give proposition_id to evaluate the stored evidence, or an inline view; trusted origins in an inline view are demoted unless attested by an ingest role. Read the axes, never collapse them.',
    inputSchema: z.object({
      proposition_id: idSchema.optional().describe('Evaluate the stored evidence of this proposition'),
      view_id: z.string().min(1).optional().describe('A stored snapshot; default the latest'),
      view: z.record(z.string(), z.unknown()).optional().describe('An inline EvidenceView to evaluate instead (never stored)'),
      evaluated_at: z.string().min(1).optional().describe('ISO-8601 time to evaluate at; default now'),
      ingest_attestation: attestationSchema,
    }),
    outputSchema: orRefusal(warrantNowOutput),
    execute: ({ proposition_id, view_id, view, evaluated_at, ingest_attestation }) =>
      refusing(async (): Promise<z.infer<typeof warrantNowOutput>> => {
        const t = evaluated_at ?? now().toISOString();
        const note = 'The five warrant axes and the identity fields are normative; the rest is diagnostic. Nothing was stored.';
        if (view !== undefined) {
          const decoded = decodeView(view);
          if (ingest !== undefined && ingest_attestation === true && ingest.allowTrustedOrigins !== false) {
            return { ...warrantNow(decoded, REFERENCE_V2, t), note };
          }
          const { view: demotedView, demoted } = demoteTrustedOrigins(decoded);
          const w = warrantNow(demotedView, REFERENCE_V2, t);
          return demoted.length === 0 ? { ...w, note } : { ...w, note, inline_origins_demoted: demoted };
        }
        if (proposition_id === undefined) {
          throw new ToolRefusalError(refusal('EWP_REFUSE_INVALID_ARGUMENTS', 'give proposition_id (stored evidence) or view (inline)', '$.proposition_id'));
        }
        const stored_ = await stored(store, proposition_id, view_id);
        return { ...warrantNow(stored_, REFERENCE_V2, t), note };
      }),
  });
}

export function mayActTool({ store, now, riskPolicy }: ReadToolOptions) {
  return tool({
    description:
      'Decide whether an action that depends on a proposition may go ahead: MAY_ACT, REQUIRE_CONFIRMATION (ask a human) or DENY. Decided now, on the latest stored evidence.',
    inputSchema: z.object({
      proposition_id: idSchema,
      action: actionInputSchema,
      view_id: z.string().min(1).optional().describe('The snapshot you read; refused if it is no longer the latest'),
    }),
    outputSchema: orRefusal(
      axesSchema.omit({ verification: true }).extend({
        decision: z.enum(['MAY_ACT', 'REQUIRE_CONFIRMATION', 'DENY']),
        proposition_id: z.string(),
        view_id: z.string(),
        evaluated_at: z.string(),
      }),
    ),
    execute: ({ proposition_id, action, view_id }) =>
      refusing(async () => {
        const view = await stored(store, proposition_id);
        if (view_id !== undefined && view_id !== view.view_id) {
          throw new ToolRefusalError(
            refusal('EWP_REFUSE_STALE_VIEW_FOR_ACTION', `snapshot ${JSON.stringify(view_id)} is not the latest (${JSON.stringify(view.view_id)})`, '$.view_id'),
          );
        }
        const evaluatedAt = now().toISOString();
        const w = warrantNow(view, REFERENCE_V2, evaluatedAt);
        const decision = mayAct(
          w,
          { action_id: action.action_id ?? '', kind: action.kind ?? '', risk: action.risk, reversible: action.reversible },
          riskPolicy,
        );
        const { acceptance, conflict, currency, sufficiency } = w.warrant;
        return { decision, proposition_id, view_id: view.view_id, evaluated_at: evaluatedAt, acceptance, conflict, currency, sufficiency };
      }),
  });
}

export function memoryContextTool({ store, now }: ReadToolOptions) {
  return tool({
    description:
      'Read what memory holds about a proposition and how far it can be trusted: the warrant axes, the supporting and opposing evidence, checks, and warnings to say out loud (open conflicts, incompleteness, staleness).',
    inputSchema: z.object({
      proposition_id: idSchema,
      query: z.string().optional().describe('What you are trying to answer (echoed back)'),
      view_id: z.string().min(1).optional(),
      evaluated_at: z.string().optional().describe('ISO-8601; default now'),
    }),
    outputSchema: orRefusal(
      z.object({
        proposition_id: z.string(),
        view_id: z.string(),
        query: z.string().nullable(),
        evaluated_at: z.string(),
        warrant: axesSchema,
        assertions: z.array(z.string()),
        supporting_evidence_ids: z.array(z.string()),
        opposing_evidence_ids: z.array(z.string()),
        omitted_sources: z.array(z.string()),
        checks: z.array(z.object({ check_id: z.string(), method: z.string(), result: z.string(), observed_at: z.string(), origin_type: z.string() })),
        independent_lineage_count: z.number(),
        warnings: z.array(z.string()),
      }),
    ),
    execute: ({ proposition_id, query, view_id, evaluated_at }) =>
      refusing(async () => {
        const view = await stored(store, proposition_id, view_id);
        const t = evaluated_at === undefined || evaluated_at === '' ? now().toISOString() : evaluated_at;
        const w = warrantNow(view, REFERENCE_V2, t);
        const { acceptance, conflict, verification, currency, sufficiency } = w.warrant;
        return {
          proposition_id,
          view_id: view.view_id,
          query: query ?? null,
          evaluated_at: t,
          warrant: { acceptance, conflict, verification, currency, sufficiency },
          assertions: [...new Set(view.assertions.map((a) => a.text))],
          supporting_evidence_ids: w.supporting_evidence_ids,
          opposing_evidence_ids: w.opposing_evidence_ids,
          omitted_sources: w.omitted_sources,
          checks: view.checks.map((c) => ({
            check_id: c.check_id,
            method: c.method,
            result: c.result,
            observed_at: c.observed_at,
            origin_type: c.source.origin_type,
          })),
          independent_lineage_count: w.independent_lineage_count,
          warnings: memoryWarnings(view, w),
        };
      }),
  });
}
