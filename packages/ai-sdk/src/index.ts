/**
 * @ewp/ai-sdk — EWP warrant for the Vercel AI SDK: `ewpTools()` (the eight EWP tools of
 * @ewp/tools as AI SDK tools) and `gateTool()`, which turns `mayAct` into tool approval.
 * @packageDocumentation
 */
export { type EwpAiTool, type EwpToolsOptions, ewpTools, type IngestTools, type ReadTools } from './tools/ewp-tools.js';
export { type EwpToolCode, type IngestCapability, type RefusalPayload, refusalSchema, ToolRefusal } from '@ewp/tools';
export { gateTool } from './gate/gate-tool.js';
export { decideGate, type GateDecision, type GateOptions, type GateRefusal, gateRefusalSchema } from '@ewp/tools';
