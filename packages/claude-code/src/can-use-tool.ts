/**
 * The warrant gate for the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`): a `canUseTool`
 * callback, and a `PreToolUse` hook callback for the SDK's `hooks` option. Both decide through the
 * same mapping and gate as `ewp hook pre-tool-use`.
 */
import { answerPreToolUseEvent, type PreToolUseAnswer, recordPostToolUseEvent } from './pre-tool-use.js';
import { type ClaudeGateOptions, toolCallPermission } from './tool-call-permission.js';

/** The SDK's `PermissionResult`, the part this callback returns. */
export type CanUseToolResult = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

/** A call the gate wants a human to confirm, with the gate's reason. */
export interface ConfirmRequest {
  toolName: string;
  input: Record<string, unknown>;
  reason: string;
}

export interface WarrantCanUseToolOptions extends ClaudeGateOptions {
  /**
   * Ask a human (REQUIRE_CONFIRMATION, or an unmapped tool under `"unmapped": "ask"` or `"pass"`:
   * the SDK calls `canUseTool` when it would prompt). Without it those calls are denied.
   */
  confirm?: (request: ConfirmRequest) => boolean | Promise<boolean>;
}

/**
 * A `canUseTool` for the Claude Agent SDK's `query({ options: { canUseTool } })`: MAY_ACT allows,
 * DENY denies with the reason, REQUIRE_CONFIRMATION asks `confirm` (denied without one).
 * The SDK calls it only for calls its permission rules would prompt for; gate every call with
 * {@link warrantPreToolUseHook}.
 */
export function warrantCanUseTool(options: WarrantCanUseToolOptions) {
  return async (toolName: string, input: Record<string, unknown>, context: { toolUseID?: string } = {}): Promise<CanUseToolResult> => {
    const { confirm } = options;
    const permission = await toolCallPermission(toolName, input, options, {
      toolUseId: context.toolUseID,
      ...(confirm === undefined ? {} : { confirm: (reason: string) => confirm({ toolName, input, reason }) }),
    });
    if (permission.decision === 'allow') return { behavior: 'allow', updatedInput: input };
    if (permission.decision === 'deny') return { behavior: 'deny', message: permission.reason };
    // An unmapped tool the mapping leaves to a human (`ask` / `pass`), or REQUIRE_CONFIRMATION with no handler.
    if (confirm === undefined) return { behavior: 'deny', message: `${permission.reason}; a human must confirm it and no confirm handler is set` };
    const confirmed = await confirm({ toolName, input, reason: permission.reason });
    return confirmed ? { behavior: 'allow', updatedInput: input } : { behavior: 'deny', message: `${permission.reason}; not confirmed` };
  };
}

/**
 * A `PreToolUse` hook callback for the SDK's `hooks: { PreToolUse: [{ hooks: [callback] }] }`:
 * the same answer `ewp hook pre-tool-use` prints, for every tool call.
 */
export function warrantPreToolUseHook(options: ClaudeGateOptions) {
  return (input: unknown): Promise<PreToolUseAnswer> => answerPreToolUseEvent(input, options);
}

/**
 * A `PostToolUse` / `PostToolUseFailure` hook callback for the SDK's `hooks` option: records the
 * outcome of each gated call (succeeded, or failed with Claude's error) under the decision that
 * claimed it. Answers `{}` (it changes nothing Claude does); a ledger that cannot record throws, as
 * the SDK reports a failing hook.
 */
export function warrantPostToolUseHook(options: ClaudeGateOptions) {
  return async (input: unknown): Promise<Record<string, never>> => {
    await recordPostToolUseEvent(input, options);
    return {};
  };
}
