/**
 * @ewp/claude-code — the EWP warrant gate for Claude Code and the Claude Agent SDK. One tool mapping
 * file says which proposition each tool call depends on and what action it is; the shared gate of
 * `@ewp/tools` decides on the latest stored evidence, answered as `allow` / `ask` / `deny` with the
 * deciding rule: by `ewp hook pre-tool-use` (a Claude Code hook), `warrantCanUseTool` and
 * `warrantPreToolUseHook` (the Agent SDK).
 * @packageDocumentation
 */
export {
  type ConfirmRequest,
  type CanUseToolResult,
  warrantCanUseTool,
  type WarrantCanUseToolOptions,
  warrantPostToolUseHook,
  warrantPreToolUseHook,
} from './can-use-tool.js';
export {
  answerPreToolUse,
  answerPreToolUseEvent,
  denyAnswer,
  type PreToolUseAnswer,
  type PreToolUseCall,
  preToolUseAnswer,
  readPreToolUseEvent,
  recordPostToolUseEvent,
} from './pre-tool-use.js';
export {
  CLAUDE_CODE_GATE,
  type ClaudeGateOptions,
  type ClaudePermission,
  type ClaudePermissionDecision,
  type ClaudeToolCall,
  recordToolUseOutcome,
  type ToolUseOutcome,
  type ToolUseReport,
  toolCallPermission,
} from './tool-call-permission.js';
export { type MappedCall, mapToolCall, type NoEvidencePolicy, parseToolMapping, type ToolMapping, type ToolRule, type UnmappedPolicy } from './tool-mapping.js';
