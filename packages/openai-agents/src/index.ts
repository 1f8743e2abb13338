/**
 * @ewp/openai-agents — EWP warrant for the OpenAI Agents SDK: `ewpTools()` (the agent-callable EWP
 * tools as function tools), `observe()` (a tool whose results are recorded as observations of a claim),
 * `gate()` (an action tool that runs only when the evidence for its claim warrants it: `needsApproval`
 * and a tool input guardrail) and `EvidenceSession` (a `Session` that records turns as evidence).
 * @packageDocumentation
 */
export { type EwpAgentTool, type EwpToolsOptions, ewpTools } from './tools/ewp-tools.js';
export { GATE_GUARDRAIL_NAME, gate } from './gate/gate.js';
export { observe } from './gate/observe.js';
export { EvidenceSession, type EvidenceSessionOptions } from './session/evidence-session.js';
export type { GateAction, GateOptions, GateRefusal, GateRiskPolicy, ObserveOptions, RefusalPayload } from '@ewp/tools';
