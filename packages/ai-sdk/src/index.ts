/**
 * @ewp/ai-sdk — EWP warrant for the Vercel AI SDK: `ewpTools()` (the agent-callable EWP tools as AI
 * SDK tools), `observe()` (a tool whose results are recorded as observations of a claim) and `gate()`
 * (an action tool that runs only when the evidence for its claim warrants it: AI SDK 6's per-tool
 * `needsApproval`); on AI SDK 7, `toolApproval()` / `withToolApproval()` put the same gate on the call.
 * @packageDocumentation
 */
export { type EwpAiTool, type EwpToolsOptions, ewpTools, type IngestTools, type ReadTools } from './tools/ewp-tools.js';
export { type AiGateOptions, gate } from './gate/gate.js';
export { type AiObserveOptions, type ExecutableTool, observe, type ToolInputOf, type ToolResultOf } from './gate/observe.js';
export type { NamedTool } from './gate/named-tool.js';
export { toolApproval, type WarrantApprovalStatus, type WarrantToolApproval, withToolApproval } from './gate/tool-approval.js';
export type { GateAction, GateOptions, GateRefusal, GateRiskPolicy, ObserveOptions, RefusalPayload } from '@ewp/tools';
