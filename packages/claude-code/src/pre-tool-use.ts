/**
 * The Claude Code `PreToolUse` hook protocol: the event JSON Claude Code writes on the hook's stdin,
 * and the answer it reads on stdout (`hookSpecificOutput.permissionDecision` with its reason).
 * Anything that cannot be read as a PreToolUse event is denied with the reason (fail closed).
 */
import { EwpError, parseJsonStrict } from '@ewp/core';
import { type ClaudeGateOptions, type ClaudePermission, recordToolUseOutcome, type ToolUseOutcome, toolCallPermission } from './tool-call-permission.js';

/** What the hook prints: a decision with its reason, or `{}` (no decision) for an unmapped tool under `"unmapped": "pass"`. */
export type PreToolUseAnswer =
  | {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse';
        permissionDecision: 'allow' | 'ask' | 'deny';
        permissionDecisionReason: string;
      };
    }
  | Record<string, never>;

/** The fields of the PreToolUse event the gate reads. */
export interface PreToolUseCall {
  toolName: string;
  toolInput: unknown;
  /** Claude's `tool_use_id`, when the event carries one: the call id of the decision records. */
  toolUseId?: string;
}

/** A permission as the hook's stdout JSON. */
export function preToolUseAnswer(permission: ClaudePermission): PreToolUseAnswer {
  if (permission.decision === undefined) return {};
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: permission.decision, permissionDecisionReason: permission.reason } };
}

/** A refusal with its reason, for input or setup the hook cannot use. */
export function denyAnswer(reason: string): PreToolUseAnswer {
  return preToolUseAnswer({ decision: 'deny', reason: `EWP: ${reason}; the call is refused` });
}

/** Read a PreToolUse event (parsed JSON); a string reason when it is not one. */
export function readPreToolUseEvent(event: unknown): PreToolUseCall | string {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'the hook input is not a JSON object';
  const { hook_event_name: name, tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId } = event as Record<string, unknown>;
  if (name !== undefined && name !== 'PreToolUse') return `the hook input is a ${JSON.stringify(name)} event, not PreToolUse`;
  if (typeof toolName !== 'string' || toolName.length === 0) return 'the hook input has no tool_name';
  if (toolUseId !== undefined && (typeof toolUseId !== 'string' || toolUseId === '')) return 'the hook input has a tool_use_id that is not a non-empty string';
  return toolUseId === undefined ? { toolName, toolInput } : { toolName, toolInput, toolUseId };
}

/** Answer one PreToolUse event (parsed JSON): read it, decide, answer. */
export async function answerPreToolUseEvent(event: unknown, options: ClaudeGateOptions): Promise<PreToolUseAnswer> {
  const call = readPreToolUseEvent(event);
  if (typeof call === 'string') return denyAnswer(call);
  return preToolUseAnswer(await toolCallPermission(call.toolName, call.toolInput, options, { toolUseId: call.toolUseId }));
}

/**
 * Record what Claude Code reports after a call (a parsed `PostToolUse` or `PostToolUseFailure`
 * event): the outcome of the call's claimed execution, succeeded or failed with its error, and its
 * `tool_response` (or error) as an observation on the claims the mapping's `observe` rules name.
 * @throws {EwpError} `WRONG_TYPE` naming the field for an event that is not such a report.
 * @throws {DecisionError} when the ledger cannot record the outcome.
 */
export async function recordPostToolUseEvent(event: unknown, options: ClaudeGateOptions): Promise<ToolUseOutcome> {
  if (typeof event !== 'object' || event === null || Array.isArray(event))
    throw new EwpError('WRONG_TYPE', 'the hook input is not a JSON object', { path: '$' });
  const {
    hook_event_name: name,
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: toolUseId,
    tool_response: response,
    error,
  } = event as Record<string, unknown>;
  if (name !== 'PostToolUse' && name !== 'PostToolUseFailure') {
    throw new EwpError('WRONG_TYPE', `the hook input is a ${JSON.stringify(name)} event, not PostToolUse or PostToolUseFailure`, { path: '$.hook_event_name' });
  }
  if (typeof toolName !== 'string' || toolName === '') throw new EwpError('WRONG_TYPE', 'tool_name must be a non-empty string', { path: '$.tool_name' });
  if (typeof toolUseId !== 'string' || toolUseId === '') throw new EwpError('WRONG_TYPE', 'tool_use_id must be a non-empty string', { path: '$.tool_use_id' });
  return recordToolUseOutcome(
    name === 'PostToolUse'
      ? { toolName, toolInput, toolUseId, status: 'succeeded', response }
      : { toolName, toolInput, toolUseId, status: 'failed', error: typeof error === 'string' ? error : 'failed' },
    options,
  );
}

/**
 * Answer one hook invocation from its stdin (text, or the bytes as read). Read with core's strict JSON
 * reader: bytes that are not UTF-8, a key given twice (`JSON.parse` would let the last `tool_name`
 * win) or a lone surrogate are denied with the reason, as malformed JSON is.
 */
export async function answerPreToolUse(input: string | Uint8Array, options: ClaudeGateOptions): Promise<PreToolUseAnswer> {
  let event: unknown;
  try {
    event = parseJsonStrict(input);
  } catch (error) {
    if (!EwpError.isInstance(error)) throw error;
    return denyAnswer(
      error.code === 'JSON_SYNTAX' ? `the hook input is not JSON (${error.message})` : `the hook input is refused: ${error.code}: ${error.message}`,
    );
  }
  return answerPreToolUseEvent(event, options);
}
