/**
 * @ewp/adk — EWP warrant for Google ADK agents: `ewpAdkTools()` (the EWP tools of @ewp/tools as ADK
 * tools), `warrantCallbacks()` (the warrant gate as ADK's before-tool callback, decisions recorded
 * under ADK's invocation and function-call ids, execution once per call; tool results as observations
 * through the after-tool callback) and `consequentialActionAllowed()` (the fail-closed check of the
 * serialized verdict in callback or session state).
 * @packageDocumentation
 */
export { type EwpAdkToolsOptions, EwpAdkTool, ewpAdkTools } from './tools/ewp-adk-tools.js';
export { ADK_GATE, type AdkToolArgs, adkCallId, type WarrantCallbacks, type WarrantCallbacksOptions, warrantCallbacks } from './gate/warrant-callbacks.js';
export {
  type BlockCode,
  type ConsequentialCheck,
  type ConsequentialExpectation,
  consequentialActionAllowed,
  DEFAULT_ALLOW_MAX_AGE_SECONDS,
  GATE_STATE_KEY,
  GATE_STATE_VERSION,
  type GateState,
  type StateLike,
  serializeGateState,
} from './gate/gate-state.js';
export { decideGate, type GateDecision, type GateOptions, type GateRefusal, gateRefusalSchema } from '@ewp/tools';
export { type EwpToolCode, type IngestCapability, type RefusalPayload, refusalSchema, ToolRefusal } from '@ewp/tools';
