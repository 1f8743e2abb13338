/**
 * `toolApproval()`: the warrant gate as AI SDK 7's call-level `toolApproval` option of `generateText`,
 * `streamText` and `ToolLoopAgent`. Each gated tool gets a per-tool approval function that decides on
 * the latest stored evidence (the shared gate of `@ewp/tools`) and answers in the SDK's vocabulary.
 * The SDK calls it again when an approved call comes back, so evidence that turned to DENY while a
 * human was deciding refuses the approved call. Decisions are recorded under the gate `ai-sdk-v7`
 * with the SDK's `toolCallId`; {@link withToolApproval} also runs the gated tools' `execute` through
 * `runGuarded` (one execution per call, claimed in the ledger, outcome recorded).
 */
import { type Decision, type GateName, InvalidArgumentError } from '@ewp/core';
import { checkGateOptions, decideGate, type GateCall, type GateOptions, ruleReason, runGuarded } from '@ewp/tools';

/** The gate name the decisions of `toolApproval` and `withToolApproval` are recorded under (`ewp decisions list` shows it). */
const GATE_V7 = 'ai-sdk-v7' satisfies GateName;

/** One call of a gated tool, named by its key in `tools` and the SDK's `toolCallId`. */
const callOf = (tool: string, toolCallId: string | undefined): GateCall => ({ gate: GATE_V7, tool, callId: toolCallId });

/** An AI SDK 7 `ToolApprovalStatus` with its reason (the reason reaches the approver or the model). */
export interface WarrantApprovalStatus {
  type: 'approved' | 'denied' | 'user-approval';
  reason: string;
}

/** The gate's decision in AI SDK 7's approval vocabulary: the one mapping of this binding. */
const APPROVAL: Record<Decision, WarrantApprovalStatus['type']> = {
  MAY_ACT: 'approved',
  REQUIRE_CONFIRMATION: 'user-approval',
  DENY: 'denied',
};

/** What AI SDK 7 passes to an approval function and to `execute` (the part the gate reads). */
interface CallOptions {
  toolCallId?: string;
  messages?: readonly unknown[];
}

/** Per gated tool, what `toolApproval` passes to the SDK: an approval function of the tool input. */
export type WarrantToolApproval<INPUTS extends Record<string, unknown>> = {
  [K in keyof INPUTS]: (input: INPUTS[K], options?: CallOptions) => Promise<WarrantApprovalStatus>;
};

/** The gates, each checked once (`checkGateOptions`, its path `gates.<tool>`); returns the gated tool names. */
function checkedGates<INPUTS extends Record<string, unknown>>(gates: { [K in keyof INPUTS]: GateOptions<INPUTS[K]> }): (keyof INPUTS & string)[] {
  if (typeof gates !== 'object' || gates === null) throw new InvalidArgumentError('gates', 'an object of tool name to gate options is required');
  const names = Object.keys(gates) as (keyof INPUTS & string)[];
  for (const name of names) checkGateOptions(gates[name], GATE_V7, `gates.${name}`);
  return names;
}

/**
 * The `toolApproval` option for AI SDK 7: one entry per gated tool name. Tools without an entry keep
 * their own `needsApproval` (the SDK's rule); an entry takes precedence over it. Each decision is
 * recorded under the gate `ai-sdk-v7` (unless `record` names another) and the SDK's `toolCallId`.
 * This decides only: the SDK runs `execute` itself, so use {@link withToolApproval} to have the
 * execution claimed once per call and its outcome recorded.
 *
 * ```ts
 * const result = await generateText({
 *   model, tools: { restart },
 *   toolApproval: toolApproval({ restart: { claim: 'server01 is healthy', action: { risk: 'high' }, store } }),
 * });
 * ```
 *
 * @param gates tool name → the shared gate's options (`GateOptions`: store, claim or proposition, action, risk policy, clock).
 * @throws {InvalidArgumentError} when `gates` is not an object or an entry's options are malformed (the field named).
 */
export function toolApproval<INPUTS extends Record<string, unknown>>(gates: { [K in keyof INPUTS]: GateOptions<INPUTS[K]> }): WarrantToolApproval<INPUTS> {
  const approval = {} as WarrantToolApproval<INPUTS>;
  for (const name of checkedGates(gates)) {
    const options = gates[name];
    approval[name] = async (input, call) => {
      const d = await decideGate(options, input, callOf(name, call?.toolCallId));
      return { type: APPROVAL[d.decision], reason: ruleReason(d) };
    };
  }
  return approval;
}

type Part = { type?: string; toolCallId?: string; approvalId?: string; approved?: boolean; isAutomatic?: boolean };

/**
 * Whether a human approved this call in the messages the SDK passes to `execute`: a
 * `tool-approval-request` for the call that the SDK did not answer itself (`isAutomatic`), and an
 * approving `tool-approval-response` to it.
 */
function humanApproved(messages: readonly unknown[] | undefined, toolCallId: string): boolean {
  const parts = (role: string): Part[] =>
    (messages ?? []).flatMap((m) => {
      const message = m as { role?: unknown; content?: unknown };
      return message.role === role && Array.isArray(message.content) ? (message.content as Part[]) : [];
    });
  const requested = new Set(
    parts('assistant')
      .filter((p) => p.type === 'tool-approval-request' && p.toolCallId === toolCallId && p.isAutomatic !== true)
      .map((p) => p.approvalId),
  );
  return parts('tool').some((p) => p.type === 'tool-approval-response' && p.approved === true && requested.has(p.approvalId));
}

/** A tool as `withToolApproval` reads it: anything with an optional `execute`. */
type AnyTool = { execute?: (input: never, options: never) => unknown };

/**
 * The tools and the `toolApproval` option together: each gated tool's `execute` runs through
 * `runGuarded` under the gate `ai-sdk-v7` and the SDK's `toolCallId`: decided again on the evidence
 * of that moment, run only on MAY_ACT or on the human approval the messages carry (recorded as the
 * confirmation), the execution claimed once per call (an approval response sent twice is refused)
 * and recorded `succeeded` or `failed`. A refusal at that moment is the `GateRefusal` the model reads.
 *
 * ```ts
 * const { tools, toolApproval } = withToolApproval({ restart }, { restart: { claim: 'server01 is healthy', store } });
 * await generateText({ model, tools, toolApproval, prompt });
 * ```
 * @throws {InvalidArgumentError} when `gates` is malformed, or names a tool that is absent or has no `execute`.
 */
export function withToolApproval<TOOLS extends Record<string, AnyTool>, INPUTS extends Record<string, unknown>>(
  tools: TOOLS,
  gates: { [K in keyof INPUTS]: GateOptions<INPUTS[K]> },
): { tools: TOOLS; toolApproval: WarrantToolApproval<INPUTS> } {
  const approval = toolApproval(gates);
  const guarded: Record<string, AnyTool> = { ...tools };
  for (const name of Object.keys(gates)) {
    const inner = tools[name];
    if (inner === undefined || typeof inner.execute !== 'function') {
      throw new InvalidArgumentError(`tools.${name}.execute`, 'a gated tool needs an execute function');
    }
    const execute = inner.execute as (input: unknown, options: CallOptions) => unknown;
    const options = gates[name] as GateOptions<unknown>;
    guarded[name] = {
      ...inner,
      execute: async (input: unknown, call: CallOptions) => {
        const callId = call?.toolCallId;
        const run = await runGuarded(
          {
            ...options,
            confirm: () => (callId !== undefined && humanApproved(call.messages, callId) ? { confirmedBy: `ai-sdk-v7 tool approval ${callId}` } : false),
          },
          input,
          callOf(name, callId),
          async (i) => execute(i, call),
        );
        return run.status === 'executed' ? run.result : run.refusal;
      },
    } as AnyTool;
  }
  return { tools: guarded as TOOLS, toolApproval: approval };
}
