/**
 * `gateTool()`: wrap any AI SDK tool so that the warrant of a proposition decides whether it
 * runs. MAY_ACT runs it; REQUIRE_CONFIRMATION becomes the SDK's tool approval (`needsApproval`);
 * DENY returns a typed refusal the model can read. Every decision is made on the latest stored
 * evidence at the moment of the call, and made again when the approved call finally executes;
 * each is recorded in the ledger under the gate `ai-sdk` and the SDK's tool call id, and the
 * execution runs through `runGuarded` (once per call: an approval response replayed decides again,
 * and is refused; outcome recorded).
 */
import { InvalidArgumentError } from '@ewp/core';
import { decideGate, type GateOptions, type GateRefusal, gateOptionsForCall, gateRefusalSchema, runGuarded } from '@ewp/tools';
import { type ModelMessage, type Tool, type ToolExecutionOptions, tool } from 'ai';
import { z } from 'zod/v4';
import { approvalGranted, approvalRequested } from './approval-state.js';

/** The gate name on the decision records this binding writes (its gate and its `ewp_may_act` tool). */
export const RECORDING_GATE = 'ai-sdk';

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
 * and output (a zod output schema becomes `inner | GateRefusal`). Its decisions are recorded under
 * the gate `ai-sdk` (unless `options.record` names another) and the SDK's `toolCallId` (unless
 * `options.callId` maps its own), and a call executes at most once.
 *
 * @throws {DecisionError} from `execute` (the SDK reports it as the call's tool error) when the
 * ledger cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`: nothing runs), or when the call was
 * already executed, e.g. the same approval response sent again (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`).
 */
export function gateTool<INPUT, OUTPUT>(inner: Tool<INPUT, OUTPUT>, options: GateOptions<INPUT>): Tool<INPUT, OUTPUT | GateRefusal> {
  if (typeof inner.execute !== 'function') throw new InvalidArgumentError('inner', 'gateTool needs a tool with an execute function');
  if (options.store === undefined) throw new InvalidArgumentError('options.store', 'an EvidenceStore is required');
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
      const d = await decideGate(gateOptionsForCall(options, RECORDING_GATE, opts.toolCallId), input);
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
          ...gateOptionsForCall(options, RECORDING_GATE, opts.toolCallId),
          confirm: () => (approvalGranted(opts.messages, opts.toolCallId) ? { confirmed_by: `ai-sdk tool approval ${opts.toolCallId}` } : false),
        },
        input,
        async (i) => execute(i, opts),
      );
      return run.status === 'executed' ? run.result : (run.refusal as GateRefusal);
    },
  };
  return tool(gated as unknown as Tool<INPUT, OUTPUT | GateRefusal>);
}
