/**
 * `gateTool()`: wrap any AI SDK tool so that the warrant of a proposition decides whether it
 * runs. MAY_ACT runs it; REQUIRE_CONFIRMATION becomes the SDK's tool approval (`needsApproval`);
 * DENY returns a typed refusal the model can read. Every decision is made on the latest stored
 * evidence at the moment of the call, and made again when the approved call finally executes.
 */
import { type Action, type Decision, mayAct, REFERENCE_V2, type RiskPolicy, type WarrantView, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type ModelMessage, type Tool, type ToolExecutionOptions, tool } from 'ai';
import { z } from 'zod';
import { approvalGranted, approvalRequested } from './approval-state.js';

/** What a gated tool returns instead of running. */
export interface GateRefusal {
  ewp_gate: 'DENY' | 'REQUIRE_CONFIRMATION';
  reason: string;
  proposition_id: string;
  action_id: string;
  view_id: string | null;
  evaluated_at: string;
  acceptance: string | null;
  conflict: string | null;
  currency: string | null;
  sufficiency: string | null;
}

export const gateRefusalSchema = z.object({
  ewp_gate: z.enum(['DENY', 'REQUIRE_CONFIRMATION']),
  reason: z.string(),
  proposition_id: z.string(),
  action_id: z.string(),
  view_id: z.string().nullable(),
  evaluated_at: z.string(),
  acceptance: z.string().nullable(),
  conflict: z.string().nullable(),
  currency: z.string().nullable(),
  sufficiency: z.string().nullable(),
});

export interface GateOptions<INPUT> {
  /** The proposition the action depends on (or a function of the tool input). */
  proposition: string | ((input: INPUT) => string);
  /** The action, as `mayAct` reads it (or a function of the tool input). */
  action: Action | ((input: INPUT) => Action);
  /** The operator's action policy (SPEC §9). */
  riskPolicy?: RiskPolicy;
  store: EvidenceStore;
  /** Clock for the decision time. Default `() => new Date()`. */
  now?: () => Date;
}

/** One decision, with what it was made on. */
export interface GateDecision {
  decision: Decision;
  propositionId: string;
  action: Action;
  evaluatedAt: string;
  /** Undefined when nothing is stored for the proposition (decided DENY). */
  warrant: WarrantView | undefined;
}

/** Decide now, on the latest stored evidence. No stored evidence: DENY (nothing warrants acting). */
export async function decideGate<INPUT>(options: GateOptions<INPUT>, input: INPUT): Promise<GateDecision> {
  const propositionId = typeof options.proposition === 'function' ? options.proposition(input) : options.proposition;
  const action = typeof options.action === 'function' ? options.action(input) : options.action;
  const evaluatedAt = (options.now ?? (() => new Date()))().toISOString();
  const view = await options.store.get(propositionId);
  if (view === undefined) return { decision: 'DENY', propositionId, action, evaluatedAt, warrant: undefined };
  const warrant = warrantNow(view, REFERENCE_V2, evaluatedAt);
  return { decision: mayAct(warrant, action, options.riskPolicy), propositionId, action, evaluatedAt, warrant };
}

function gateRefusal(d: GateDecision, gate: GateRefusal['ewp_gate'], reason: string): GateRefusal {
  const w = d.warrant?.warrant;
  return {
    ewp_gate: gate,
    reason,
    proposition_id: d.propositionId,
    action_id: d.action.action_id,
    view_id: d.warrant?.view_id ?? null,
    evaluated_at: d.evaluatedAt,
    acceptance: w?.acceptance ?? null,
    conflict: w?.conflict ?? null,
    currency: w?.currency ?? null,
    sufficiency: w?.sufficiency ?? null,
  };
}

function denyReason(d: GateDecision): string {
  if (d.warrant === undefined) return `no stored evidence for ${d.propositionId}: nothing warrants this action`;
  const w = d.warrant.warrant;
  return `the evidence for ${d.propositionId} does not warrant this ${d.action.risk ?? 'low'}-risk action (acceptance ${w.acceptance}, conflict ${w.conflict}, currency ${w.currency}, sufficiency ${w.sufficiency}); do not retry it as is`;
}

/** What the SDK passes to `needsApproval`. */
interface ApprovalOptions {
  toolCallId: string;
  messages: ModelMessage[];
  experimental_context?: unknown;
}

function isZodSchema(schema: unknown): schema is z.ZodType {
  return schema instanceof z.ZodType;
}

/**
 * Wrap `inner` with the warrant gate. The wrapped tool keeps the inner description, input schema
 * and output (a zod output schema becomes `inner | GateRefusal`).
 */
export function gateTool<INPUT, OUTPUT>(inner: Tool<INPUT, OUTPUT>, options: GateOptions<INPUT>): Tool<INPUT, OUTPUT | GateRefusal> {
  if (typeof inner.execute !== 'function') throw new TypeError('tool: gateTool needs a tool with an execute function');
  if (options.store === undefined) throw new TypeError('store: an EvidenceStore is required');
  const execute = inner.execute;
  const innerApproval = inner.needsApproval;
  const outputSchema = isZodSchema(inner.outputSchema) ? z.union([inner.outputSchema, gateRefusalSchema]) : undefined;

  const gated = {
    ...inner,
    outputSchema,
    needsApproval: async (input: INPUT, opts: ApprovalOptions) => {
      // The SDK asks again when an approval answer comes back; keep the approved call on the
      // approval path so that execute() decides it with fresh evidence.
      if (approvalRequested(opts.messages, opts.toolCallId)) return true;
      const d = await decideGate(options, input);
      if (d.decision === 'REQUIRE_CONFIRMATION') return true;
      // DENY runs execute(), which refuses with a typed result instead of asking a human.
      if (d.decision === 'DENY') return false;
      if (typeof innerApproval === 'function') return (innerApproval as (i: INPUT, o: ApprovalOptions) => boolean | PromiseLike<boolean>)(input, opts);
      return innerApproval === true;
    },
    execute: async (input: INPUT, opts: ToolExecutionOptions) => {
      const d = await decideGate(options, input);
      if (d.decision === 'DENY') return gateRefusal(d, 'DENY', denyReason(d));
      if (d.decision === 'REQUIRE_CONFIRMATION' && !approvalGranted(opts.messages, opts.toolCallId)) {
        return gateRefusal(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`);
      }
      return execute(input, opts);
    },
  };
  return tool(gated as unknown as Tool<INPUT, OUTPUT | GateRefusal>);
}
