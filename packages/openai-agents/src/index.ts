/**
 * @ewp/openai-agents — EWP warrant for the OpenAI Agents SDK: `ewpAgentTools()` (the eight EWP
 * tools of @ewp/tools as function tools), `gateAgentTool()` (`mayAct` as `needsApproval` and a
 * tool input guardrail) and `EvidenceSession` (a `Session` that records turns as evidence).
 * @packageDocumentation
 */
export { type EwpAgentTool, type EwpAgentToolsOptions, ewpAgentTools } from './tools/ewp-agent-tools.js';
export { GATE_GUARDRAIL_NAME, gateAgentTool, gatedAgentTool } from './gate/gate-agent-tool.js';
export { EvidenceSession, type EvidenceSessionOptions } from './session/evidence-session.js';
export { decideGate, type GateDecision, type GateOptions, type GateRefusal, gateRefusalSchema } from '@ewp/tools';
export { type EwpToolCode, type IngestCapability, type RefusalPayload, refusalSchema, ToolRefusal } from '@ewp/tools';
