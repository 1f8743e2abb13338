/**
 * `gate()`: the warrant gate as AI SDK 6's per-tool `needsApproval`. MAY_ACT runs the tool,
 * REQUIRE_CONFIRMATION asks for the SDK's tool approval, DENY returns a typed refusal the model reads.
 * The approved call executes through `runGuarded` of `@ewp/tools`: decided again on the evidence of
 * that moment, run once per call (an approval response replayed decides again, and is refused), its
 * outcome recorded.
 */
import type { GateName } from '@ewp/core';
import { checkGateOptions, decideGate, type GateCall, type GateOptions, type GateRefusal, gateRefusalSchema, runGuarded } from '@ewp/tools';
import { type ModelMessage, type Tool, type ToolExecutionOptions, tool } from 'ai';
import { z } from 'zod/v4';
import { approvalGranted, approvalRequested } from './approval-state.js';
import { checkedExecute, checkedName, type NamedTool } from './named-tool.js';

/** The gate name the decisions of `gate()` and of `ewpTools()`' `ewp_may_act` are recorded under. */
export const GATE = 'ai-sdk' satisfies GateName;

/** Options of {@link gate}: the shared gate's options, and the tool's name (AI SDK tools carry none). */
export type AiGateOptions<INPUT> = GateOptions<INPUT> & NamedTool;

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
 * Wrap `inner` with the warrant gate. The gated tool keeps the inner description, input schema and
 * output (a zod output schema becomes `inner | GateRefusal`). Its decisions are recorded under the
 * gate `ai-sdk` (unless `options.record` names another) and the SDK's `toolCallId` (unless
 * `options.callId` maps its own), and a call executes at most once.
 *
 * @example
 * const tools = { restart: gate(restart, { name: 'restart', claim: 'server01 is healthy', store }) };
 *
 * @throws {InvalidArgumentError} at wrap time: a tool without `execute` (`tool.execute`), no name
 * (`options.name`), or malformed gate options (the field, see `checkGateOptions`).
 * @throws {DecisionError} from `execute` (the SDK reports it as the call's tool error) when the
 * ledger cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`: nothing runs), or when the call was
 * already executed, e.g. the same approval response sent again (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`).
 */
export function gate<INPUT, OUTPUT>(inner: Tool<INPUT, OUTPUT>, options: AiGateOptions<INPUT>): Tool<INPUT, OUTPUT | GateRefusal> {
  const execute = checkedExecute(inner, 'gate');
  const name = checkedName(options);
  checkGateOptions(options, GATE);
  const call = (toolCallId: string | undefined): GateCall => ({ gate: GATE, tool: name, callId: toolCallId });
  const innerApproval = inner.needsApproval;
  const outputSchema = isZodSchema(inner.outputSchema) ? z.union([inner.outputSchema, gateRefusalSchema]) : undefined;

  const gated = {
    ...inner,
    outputSchema,
    needsApproval: async (input: INPUT, opts: ApprovalOptions) => {
      // The SDK asks again when an approval answer comes back; keep the approved call on the
      // approval path so that execute() decides it with fresh evidence.
      if (approvalRequested(opts.messages, opts.toolCallId)) return true;
      const d = await decideGate(options, input, call(opts.toolCallId));
      if (d.decision === 'REQUIRE_CONFIRMATION') return true;
      // DENY runs execute(), which refuses with a typed result instead of asking a human.
      if (d.decision === 'DENY') return false;
      if (typeof innerApproval === 'function') return (innerApproval as (i: INPUT, o: ApprovalOptions) => boolean | PromiseLike<boolean>)(input, opts);
      return innerApproval === true;
    },
    execute: async (input: INPUT, opts: ToolExecutionOptions) => {
      // The one guarded run: decide and record, run only on MAY_ACT or a recorded approval, record the outcome.
      const run = await runGuarded(
        {
          ...options,
          confirm: () => (approvalGranted(opts.messages, opts.toolCallId) ? { confirmedBy: `ai-sdk tool approval ${opts.toolCallId}` } : false),
        },
        input,
        call(opts.toolCallId),
        async (i) => execute(i, opts),
      );
      return run.status === 'executed' ? run.result : (run.refusal as GateRefusal);
    },
  };
  return tool(gated as unknown as Tool<INPUT, OUTPUT | GateRefusal>);
}
