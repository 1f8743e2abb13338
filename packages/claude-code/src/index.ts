/**
 * @ewp/claude-code — the EWP warrant gate for Claude Code and the Claude Agent SDK. One tool mapping
 * file says which proposition each tool call depends on and what action it is; the shared gate of
 * `@ewp/tools` decides on the latest stored evidence, answered as `allow` / `ask` / `deny` with the
 * deciding rule: by `ewp hook pre-tool-use` (a Claude Code hook), `warrantCanUseTool` and
 * `warrantPreToolUseHook` (the Agent SDK).
 * @packageDocumentation
 */
export { type ConfirmRequest, type CanUseToolResult, warrantCanUseTool, type WarrantCanUseToolOptions, warrantPreToolUseHook } from './can-use-tool.js';
export {
  answerPreToolUse,
  answerPreToolUseEvent,
  denyAnswer,
  type PreToolUseAnswer,
  type PreToolUseCall,
  preToolUseAnswer,
  readPreToolUseEvent,
} from './pre-tool-use.js';
export { type ClaudeGateOptions, type ClaudePermission, type ClaudePermissionDecision, toolCallPermission } from './tool-call-permission.js';
export { type MappedCall, mapToolCall, parseToolMapping, type ToolMapping, type ToolRule, type UnmappedPolicy } from './tool-mapping.js';
