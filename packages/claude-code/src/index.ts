/**
 * @ewp/claude-code — the EWP warrant gate for Claude Code and the Claude Agent SDK. One tool mapping
 * file says which claim each tool call depends on and what action it is, and which tool results are
 * evidence for which claim; the shared gate of `@ewp/tools` decides on the latest stored evidence,
 * answered as `allow` / `ask` / `deny` with the deciding rule: by `ewp hook pre-tool-use` (a Claude
 * Code hook), `warrantCanUseTool` and `warrantPreToolUseHook` (the Agent SDK); `ewp hook
 * post-tool-use` and `warrantPostToolUseHook` record each call's outcome and its result as an observation.
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
  noEvidenceReason,
  recordToolUseOutcome,
  type ToolUseOutcome,
  type ToolUseReport,
  toolCallPermission,
} from './tool-call-permission.js';
export {
  type GateSubject,
  type InputCondition,
  type MappedCall,
  type MappedObservation,
  mapToolCall,
  type NoEvidencePolicy,
  type ObserveRule,
  observeToolCall,
  parseToolMapping,
  responseText,
  type ToolMapping,
  type ToolRule,
  type UnmappedPolicy,
} from './tool-mapping.js';
