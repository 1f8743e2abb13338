/**
 * Reading the SDK's approval round trip from the prompt messages: a tool call was approved when
 * an assistant message carries a `tool-approval-request` for it and a tool message answers that
 * request with `approved: true`.
 */
import type { ModelMessage } from 'ai';

type Part = { type?: string; toolCallId?: string; approvalId?: string; approved?: boolean };

function parts(messages: readonly ModelMessage[], role: 'assistant' | 'tool'): Part[] {
  return messages.flatMap((m) => (m.role === role && Array.isArray(m.content) ? (m.content as Part[]) : []));
}

/** The approval ids requested for `toolCallId`. */
function requestsFor(messages: readonly ModelMessage[], toolCallId: string): Set<string> {
  const ids = new Set<string>();
  for (const part of parts(messages, 'assistant')) {
    if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId && part.approvalId) ids.add(part.approvalId);
  }
  return ids;
}

/** Whether approval was already requested for this call (the SDK is re-validating an answer). */
export function approvalRequested(messages: readonly ModelMessage[], toolCallId: string): boolean {
  return requestsFor(messages, toolCallId).size > 0;
}

/** Whether a human approved this call. */
export function approvalGranted(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const requested = requestsFor(messages, toolCallId);
  return parts(messages, 'tool').some((p) => p.type === 'tool-approval-response' && p.approved === true && requested.has(p.approvalId ?? ''));
}
