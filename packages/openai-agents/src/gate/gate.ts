/**
 * `gateAgentTool()`: wrap any Agents SDK function tool so that the warrant of a proposition decides
 * whether it runs, with the SDK's own two mechanisms: REQUIRE_CONFIRMATION is `needsApproval` (the
 * run pauses with an interruption; `state.approve()` / `state.reject()`, then run again, from the
 * same state or one restored from `state.toString()`), and DENY is a tool input guardrail that
 * rejects the call with the reason the model reads. The decision is the shared gate of
 * `@ewp/tools`, made on the latest stored evidence when the call is proposed and made again when it
 * is about to run: evidence that changed while the run was paused decides. Every decision is recorded
 * in the ledger, and the call itself runs through `runGuarded` (decided once more, then executed only
 * on MAY_ACT or the SDK's recorded approval, once per call id: a run state resumed twice decides
 * again and is refused; its outcome recorded).
 */
import { EwpError } from '@ewp/core';
import { DecisionError, decideGate, denyReason, type GateDecision, type GateOptions, gateOptionsForCall, gateRefusal, runGuarded } from '@ewp/tools';
import {
  defineToolInputGuardrail,
  type FunctionTool,
  type RunContext,
  ToolGuardrailFunctionOutputFactory,
  type ToolGuardrailFunctionOutput,
  type ToolInputGuardrailDefinition,
  tool,
} from '@openai/agents-core';

/** The name the gate's guardrail carries in run results and traces. */
export const GATE_GUARDRAIL_NAME = 'ewp_warrant_gate';

/** The gate name on the decision records this binding writes (its gate and its `ewp_may_act` tool). */
export const RECORDING_GATE = 'openai-agents';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's own tool type is generic in its parameters.
type AnyFunctionTool = FunctionTool<any, any, any>;

/**
 * What the SDK is asked when a call is proposed: the decision in the SDK's words. `undefined` hands
 * the call to the inner tool's own approval.
 */
const NEEDS_APPROVAL: Record<GateDecision['decision'], boolean | undefined> = {
  MAY_ACT: undefined,
  REQUIRE_CONFIRMATION: true,
  // Not an approval question: the guardrail refuses it when it is about to run.
  DENY: false,
};

/** The arguments of a proposed call as the model sent them. */
function callInput(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText) as unknown;
  } catch (error) {
    throw new EwpError('JSON_SYNTAX', 'the tool call arguments are not JSON', { path: 'toolCall.arguments', cause: error });
  }
}

/**
 * The caller's gate options for one call: its records name this gate (unless the caller named one or
 * turned recording off) and carry the SDK's call id (unless the caller maps its own), so the
 * decisions made on one proposed call read as one call in the ledger.
 */
function forCall<INPUT>(options: GateOptions<INPUT>, callId: string | undefined): GateOptions<INPUT> {
  return gateOptionsForCall(options, RECORDING_GATE, callId);
}

function refuse(d: GateDecision, gate: 'DENY' | 'REQUIRE_CONFIRMATION', reason: string): ToolGuardrailFunctionOutput {
  const refusal = gateRefusal(d, gate, reason);
  return ToolGuardrailFunctionOutputFactory.rejectContent(JSON.stringify(refusal), refusal);
}

/** The guardrail that decides again just before the call runs. */
function gateGuardrail<INPUT>(options: GateOptions<INPUT>, toolName: string): ToolInputGuardrailDefinition {
  return defineToolInputGuardrail({
    name: GATE_GUARDRAIL_NAME,
    run: async ({ context, toolCall }) => {
      const d = await decideGate(forCall(options, toolCall.callId), callInput(toolCall.arguments) as INPUT);
      if (d.decision === 'DENY') return refuse(d, 'DENY', denyReason(d));
      if (d.decision === 'REQUIRE_CONFIRMATION' && context.isToolApproved({ toolName, callId: toolCall.callId }) !== true) {
        // Decided MAY_ACT when proposed, REQUIRE_CONFIRMATION now: nobody was asked.
        return refuse(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`);
      }
      return ToolGuardrailFunctionOutputFactory.allow({ ewp_gate: d.decision, proposition_id: d.propositionId, evaluated_at: d.evaluatedAt });
    },
  });
}

/**
 * The guarded run of one call (`runGuarded` of `@ewp/tools`): decide on the evidence of this moment
 * and record it, run `inner.invoke` only on MAY_ACT or on the SDK's approval of this call
 * (`isToolApproved`, recorded as the confirmation), claim the one execution of the decision in the
 * ledger first and record the outcome. A refusal here (evidence that changed since the guardrail
 * allowed the call) is the `GateRefusal` JSON the model reads, as from the guardrail.
 */
function guardedInvoke<INPUT>(inner: AnyFunctionTool, options: GateOptions<INPUT>): AnyFunctionTool['invoke'] {
  return async (context, input, details) => {
    const callId = details?.toolCall?.callId;
    const run = await runGuarded(
      {
        ...forCall(options, callId),
        confirm: () =>
          callId !== undefined && context.isToolApproved({ toolName: inner.name, callId }) === true
            ? { confirmed_by: `openai-agents approval of ${inner.name} call ${callId}` }
            : false,
      },
      callInput(input) as INPUT,
      () => inner.invoke(context, input, details),
    );
    return run.status === 'executed' ? run.result : JSON.stringify(run.refusal);
  };
}

/**
 * Wrap `inner` with the warrant gate. The gated tool keeps the inner name, description, parameters,
 * input guardrails (the gate runs after them) and its own approval when the warrant says MAY_ACT;
 * its `invoke` runs the inner one through `runGuarded`, so each execution has its decision, its
 * approval if one was needed, a once-only execution claim and its outcome in the store's ledger
 * (read them back with `listDecisions` / `decisionHistory` of `@ewp/tools`, or `ewp decisions list`).
 * The outcome is what `inner.invoke` did: an error the SDK's tool `errorFunction` turned into a
 * message for the model (a failing `execute`, or arguments its schema refuses) returned, so it is
 * recorded as succeeded (a tool made with `errorFunction: null` throws, and is recorded as failed).
 * Build the tool with {@link gatedAgentTool} to have such a failure recorded as failed while the
 * model still reads the `errorFunction`'s message.
 *
 * @throws {DecisionError} from the gated tool's `needsApproval`, guardrail or `invoke` when the
 * ledger cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`: nothing runs), or when the call was
 * already executed once, e.g. a run state resumed twice after `approve()` (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`).
 *
 * @example
 * const gated = gateAgentTool(restart, { proposition: 'P-win', action: { action_id: 'restart', kind: 'restart', risk: 'high' }, store });
 * let result = await run(new Agent({ name: 'ops', tools: [gated] }), 'restart server01');
 * for (const item of result.interruptions) result.state.approve(item); // or reject(item)
 * result = await run(agent, result.state);
 */
export function gateAgentTool<T extends AnyFunctionTool, INPUT = unknown>(inner: T, options: GateOptions<INPUT>): T {
  if (inner === null || typeof inner !== 'object' || inner.type !== 'function' || typeof inner.invoke !== 'function') {
    throw new EwpError('WRONG_TYPE', 'gateAgentTool wraps a function tool made with tool()', { path: 'tool' });
  }
  if (options === null || typeof options !== 'object' || options.store === undefined || options.store === null) {
    throw new EwpError('MISSING_FIELD', 'an EvidenceStore is required', { path: 'store' });
  }
  const innerApproval = inner.needsApproval;
  return {
    ...inner,
    needsApproval: async (context: RunContext, input: unknown, callId?: string): Promise<boolean> => {
      const d = await decideGate(forCall(options, callId), input as INPUT);
      return NEEDS_APPROVAL[d.decision] ?? innerApproval(context, input, callId);
    },
    invoke: guardedInvoke(inner, options),
    inputGuardrails: [...(inner.inputGuardrails ?? []), gateGuardrail(options, inner.name)],
  };
}

/** The options of the Agents SDK's `tool()`. */
type AgentToolOptions = Parameters<typeof tool>[0];

/**
 * `tool(toolOptions)` gated as {@link gateAgentTool} gates it, with its failures recorded truthfully:
 * the tool is built with `errorFunction: null`, so a failing `execute` (or arguments its schema
 * refuses) reaches the guarded run and is recorded `failed` with its error; the model then reads what
 * the caller's `errorFunction` would have made of that error (the SDK's default message when none is
 * given; with `errorFunction: null`, or an output schema and no `errorFunction`, the error is thrown
 * as the SDK would). A ledger refusal (`DecisionError`) is always thrown.
 *
 * @example
 * const restart = gatedAgentTool({ name: 'restart', description: 'Restart a server', parameters, execute }, { proposition: 'P-win', action, store });
 */
export function gatedAgentTool<INPUT = unknown>(toolOptions: AgentToolOptions, options: GateOptions<INPUT>): AnyFunctionTool {
  if (toolOptions === null || typeof toolOptions !== 'object' || typeof toolOptions.execute !== 'function') {
    throw new EwpError('WRONG_TYPE', 'gatedAgentTool takes the options of tool() with an execute function', { path: 'toolOptions.execute' });
  }
  const gated = gateAgentTool(tool({ ...toolOptions, errorFunction: null } as AgentToolOptions) as AnyFunctionTool, options);
  // The caller's failure message is the SDK's own: the same options, an execute that throws the recorded error.
  let failure: unknown;
  const messenger = tool({
    ...toolOptions,
    execute: () => {
      throw failure;
    },
  } as AgentToolOptions) as AnyFunctionTool;
  return {
    ...gated,
    invoke: async (context, input, details) => {
      try {
        return await gated.invoke(context, input, details);
      } catch (error) {
        if (DecisionError.isInstance(error)) throw error;
        failure = error;
        return messenger.invoke(context, input, details);
      }
    },
  };
}
