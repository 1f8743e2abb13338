/**
 * @ewp/ai-sdk — EWP warrant for the Vercel AI SDK: `ewpTools()` (evaluate, decide, read memory
 * context, record evidence) and `gateTool()`, which turns `mayAct` into tool approval.
 * @packageDocumentation
 */
export { type IngestCapability, trustedOriginsOf } from './tools/attestation.js';
export { type EwpToolsOptions, ewpTools, type IngestTools, type ReadTools } from './tools/ewp-tools.js';
export { type RefusalCode, type ToolRefusal, toolRefusalSchema } from './tools/tool-refusal.js';
export {
  decideGate,
  type GateDecision,
  type GateOptions,
  type GateRefusal,
  gateRefusalSchema,
  gateTool,
} from './gate/gate-tool.js';
