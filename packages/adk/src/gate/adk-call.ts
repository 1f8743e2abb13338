/** How this binding names its calls in the decisions it records. */
import type { GateName } from '@ewp/core';
import type { Context } from '@google/adk';

/** The gate name on the decision records this binding writes (`ewp decisions list` shows it). */
export const ADK_GATE: GateName = 'adk';

/**
 * The gate's call id of one ADK function call: the invocation id and the function-call id; `undefined`
 * for a call outside a run (a tool's `runAsync` called directly, without a context).
 */
export function adkCallId(context: Pick<Context, 'invocationId' | 'functionCallId'> | undefined): string | undefined {
  return context?.functionCallId === undefined ? undefined : `${context.invocationId}:${context.functionCallId}`;
}
