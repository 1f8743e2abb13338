/**
 * `toolApproval()`: the warrant gate as AI SDK 7's call-level `toolApproval` option of `generateText`,
 * `streamText` and `ToolLoopAgent`. Each gated tool gets a per-tool approval function that decides on
 * the latest stored evidence (the shared gate of `@ewp/tools`) and answers in the SDK's vocabulary.
 * The SDK calls it again when an approved call comes back, so evidence that turned to DENY while a
 * human was deciding refuses the approved call.
 */
import { type Decision, InvalidArgumentError } from '@ewp/core';
import { decideGate, type GateOptions, ruleReason } from '@ewp/tools';

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

/** Per gated tool, what `toolApproval` passes to the SDK: an approval function of the tool input. */
export type WarrantToolApproval<INPUTS extends Record<string, unknown>> = {
  [K in keyof INPUTS]: (input: INPUTS[K]) => Promise<WarrantApprovalStatus>;
};

/**
 * The `toolApproval` option for AI SDK 7: one entry per gated tool name. Tools without an entry keep
 * their own `needsApproval` (the SDK's rule); an entry takes precedence over it.
 *
 * ```ts
 * const result = await generateText({
 *   model, tools: { restart },
 *   toolApproval: toolApproval({ restart: { proposition: 'P-win', action: { action_id: 'restart', kind: 'restart', risk: 'high' }, store } }),
 * });
 * ```
 *
 * @param gates tool name → the shared gate's options (proposition, action, risk policy, store, clock).
 * @throws InvalidArgumentError when `gates` is not an object or an entry has no store.
 */
export function toolApproval<INPUTS extends Record<string, unknown>>(gates: { [K in keyof INPUTS]: GateOptions<INPUTS[K]> }): WarrantToolApproval<INPUTS> {
  if (typeof gates !== 'object' || gates === null) throw new InvalidArgumentError('gates', 'an object of tool name to gate options is required');
  const approval = {} as WarrantToolApproval<INPUTS>;
  for (const name of Object.keys(gates) as (keyof INPUTS & string)[]) {
    const options = gates[name];
    if (typeof options !== 'object' || options === null || options.store === undefined) {
      throw new InvalidArgumentError(`gates.${name}.store`, 'an EvidenceStore is required');
    }
    approval[name] = async (input) => {
      const d = await decideGate(options, input);
      return { type: APPROVAL[d.decision], reason: ruleReason(d) };
    };
  }
  return approval;
}
