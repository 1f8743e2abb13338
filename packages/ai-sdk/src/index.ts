/**
 * @ewp/ai-sdk — EWP warrant for the Vercel AI SDK: `ewpTools()` (the eight EWP tools of
 * @ewp/tools as AI SDK tools); the warrant gate as tool approval: `toolApproval()` for AI SDK 7's
 * call-level option, `gateTool()` for AI SDK 6's per-tool `needsApproval`.
 * @packageDocumentation
 */
export { type EwpAiTool, type EwpToolsOptions, ewpTools, type IngestTools, type ReadTools } from './tools/ewp-tools.js';
export { type EwpToolCode, type IngestCapability, type RefusalPayload, refusalSchema, ToolRefusal } from '@ewp/tools';
export { gateTool } from './gate/gate-tool.js';
export { AI_SDK_V7_GATE, toolApproval, type WarrantApprovalStatus, type WarrantToolApproval, withToolApproval } from './gate/tool-approval.js';
export { decideGate, type GateDecision, type GateOptions, type GateRefusal, gateRefusalSchema } from '@ewp/tools';
