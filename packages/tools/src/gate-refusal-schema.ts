/**
 * The zod schema of a gate's refusal, apart from the gate itself (`gate-decision.ts`), so that the gate's
 * entry (`@ewp/tools/gate`, the Claude Code hook's) loads without zod.
 */
import { DECISIONS } from '@ewp/core';
import { z } from 'zod/v4';
import type { GateRefusal } from './gate-decision.js';

/** The zod schema of {@link GateRefusal} (a gated tool's output schema is `inner | gateRefusalSchema`). */
export const gateRefusalSchema = z.object({
  ewpGate: z.enum(DECISIONS.filter((d): d is GateRefusal['ewpGate'] => d !== 'MAY_ACT')),
  reason: z.string(),
  claim: z.string().nullable(),
  propositionId: z.string(),
  actionId: z.string(),
  viewId: z.string().nullable(),
  evaluatedAt: z.string(),
  acceptance: z.string().nullable(),
  conflict: z.string().nullable(),
  currency: z.string().nullable(),
  sufficiency: z.string().nullable(),
  decisionId: z.string().nullable(),
}) satisfies z.ZodType<GateRefusal>;
