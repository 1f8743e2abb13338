/**
 * `gate()`: wrap any Agents SDK function tool so that the warrant of a proposition decides
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
import { type GateName, InvalidArgumentError } from '@ewp/core';
import {
  checkGateOptions,
  DecisionError,
  decideGate,
  denyReason,
  type GateCall,
  type GateDecision,
  type GateOptions,
  gateRefusal,
  runGuarded,
} from '@ewp/tools';
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

/** The gate name the decisions of `gate()` and of `ewpTools()`' `ewp_may_act` are recorded under. */
export const GATE = 'openai-agents' satisfies GateName;

// biome-ignore lint/suspicious/noExplicitAny: the SDK's own tool type is generic in its parameters.
export type AnyFunctionTool = FunctionTool<any, any, any>;

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
export function callInput(argumentsText: string): unknown {
  try {
    return JSON.parse(argumentsText) as unknown;
  } catch (error) {
    throw new InvalidArgumentError('toolCall.arguments', 'the tool call arguments are not JSON', { cause: error });
  }
}

/** One call of the gated tool: this binding's gate, the tool's name, the SDK's call id. */
const callOf = (tool: string, callId: string | undefined): GateCall => ({ gate: GATE, tool, callId });

/** A function tool made with `tool()`. @throws {InvalidArgumentError} `tool` for anything else. */
export function checkedFunctionTool<T>(inner: T, what: string): T & AnyFunctionTool {
  const t = inner as Partial<AnyFunctionTool> | null;
  if (t === null || typeof t !== 'object' || t.type !== 'function' || typeof t.invoke !== 'function') {
    throw new InvalidArgumentError('tool', `${what}() wraps a function tool made with tool()`);
  }
  return inner as T & AnyFunctionTool;
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
      const d = await decideGate(options, callInput(toolCall.arguments) as INPUT, callOf(toolName, toolCall.callId));
      if (d.decision === 'DENY') return refuse(d, 'DENY', denyReason(d));
      if (d.decision === 'REQUIRE_CONFIRMATION' && context.isToolApproved({ toolName, callId: toolCall.callId }) !== true) {
        // Decided MAY_ACT when proposed, REQUIRE_CONFIRMATION now: nobody was asked.
        return refuse(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`);
      }
      return ToolGuardrailFunctionOutputFactory.allow({ ewpGate: d.decision, propositionId: d.propositionId, evaluatedAt: d.evaluatedAt });
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
        ...options,
        confirm: () =>
          callId !== undefined && context.isToolApproved({ toolName: inner.name, callId }) === true
            ? { confirmedBy: `openai-agents approval of ${inner.name} call ${callId}` }
            : false,
      },
      callInput(input) as INPUT,
      callOf(inner.name, callId),
      () => inner.invoke(context, input, details),
    );
    return run.status === 'executed' ? run.result : JSON.stringify(run.refusal);
  };
}

/** {@link gate} of a built function tool (its options already checked). */
function gateTool<T extends AnyFunctionTool, INPUT>(inner: T, options: GateOptions<INPUT>): T {
  const innerApproval = inner.needsApproval;
  return {
    ...inner,
    needsApproval: async (context: RunContext, input: unknown, callId?: string): Promise<boolean> => {
      const d = await decideGate(options, input as INPUT, callOf(inner.name, callId));
      return NEEDS_APPROVAL[d.decision] ?? innerApproval(context, input, callId);
    },
    invoke: guardedInvoke(inner, options),
    inputGuardrails: [...(inner.inputGuardrails ?? []), gateGuardrail(options, inner.name)],
  };
}

/** The options of the Agents SDK's `tool()`. */
type AgentToolOptions = Parameters<typeof tool>[0];

/**
 * {@link gate} of `tool(toolOptions)`, with its failures recorded truthfully:
 * the tool is built with `errorFunction: null`, so a failing `execute` (or arguments its schema
 * refuses) reaches the guarded run and is recorded `failed` with its error; the model then reads what
 * the caller's `errorFunction` would have made of that error (the SDK's default message when none is
 * given; with `errorFunction: null`, or an output schema and no `errorFunction`, the error is thrown
 * as the SDK would). A ledger refusal (`DecisionError`) is always thrown.
 */
function gateToolOptions<INPUT>(toolOptions: AgentToolOptions, options: GateOptions<INPUT>): AnyFunctionTool {
  const gated = gateTool(tool({ ...toolOptions, errorFunction: null } as AgentToolOptions) as AnyFunctionTool, options);
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

/**
 * Wrap a function tool with the warrant gate: the evidence for the claim (or proposition) the action
 * depends on decides whether it runs, with the SDK's own two mechanisms. REQUIRE_CONFIRMATION is
 * `needsApproval` (the run pauses with an interruption; `state.approve()` / `state.reject()`, then run
 * again, from the same state or one restored from `state.toString()`); DENY is a tool input guardrail
 * (named `ewp_warrant_gate`) that rejects the call with the `GateRefusal` JSON the model reads. The
 * gated tool keeps the inner name, description, parameters, input guardrails (the gate runs after
 * them) and its own approval when the warrant says MAY_ACT; its `invoke` runs the inner one through
 * `runGuarded`, so each execution has its decision (gate `openai-agents`, the tool's name, the SDK's
 * call id), its approval if one was needed, a once-only execution claim and its outcome in the
 * store's ledger (`listDecisions` / `decisionHistory` of `@ewp/tools`, or `ewp decisions list`).
 *
 * Given a built tool, the outcome is what its `invoke` did: an error its `errorFunction` turned into a
 * message is recorded as succeeded. Given the options of `tool()` instead, the tool is built so that a
 * failing `execute` is recorded `failed` while the model still reads the `errorFunction`'s message.
 *
 * @example
 * const gated = gate(restart, { claim: 'server01 is healthy', store });
 * let result = await run(new Agent({ name: 'ops', tools: [gated] }), 'restart server01');
 * for (const item of result.interruptions) result.state.approve(item); // or reject(item)
 * result = await run(agent, result.state);
 *
 * @throws {InvalidArgumentError} at wrap time: not a function tool (`tool`), tool options without
 * `execute` (`tool.execute`), malformed gate options (the field, see `checkGateOptions`).
 * @throws {DecisionError} from the gated tool's `needsApproval`, guardrail or `invoke` when the
 * ledger cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`: nothing runs), or when the call was
 * already executed once, e.g. a run state resumed twice after `approve()` (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`).
 */
export function gate<T extends AnyFunctionTool, INPUT = unknown>(tool: T, options: GateOptions<INPUT>): T;
export function gate<INPUT = unknown>(toolOptions: AgentToolOptions, options: GateOptions<INPUT>): AnyFunctionTool;
export function gate<INPUT>(inner: AnyFunctionTool | AgentToolOptions, options: GateOptions<INPUT>): AnyFunctionTool {
  const isOptions = inner !== null && typeof inner === 'object' && !('type' in inner) && 'execute' in inner;
  if (isOptions && typeof (inner as AgentToolOptions).execute !== 'function')
    throw new InvalidArgumentError('tool.execute', 'gate() needs tool options with an execute function');
  if (!isOptions) checkedFunctionTool(inner, 'gate');
  checkGateOptions(options, GATE);
  return isOptions ? gateToolOptions(inner as AgentToolOptions, options) : gateTool(inner as AnyFunctionTool, options);
}
