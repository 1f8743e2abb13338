/**
 * @ewp/adk — EWP warrant for Google ADK agents: `ewpTools()` (the EWP tools as ADK tools), `observe()` (a
 * tool's results recorded as observations of a claim), `gate()` (a tool that runs only when the evidence
 * for its claim warrants it), and the same gate and capture in ADK's own callbacks, `warrantCallbacks()`,
 * with the verdict in callback state that `consequentialActionAllowed()` checks fail-closed.
 * @packageDocumentation
 */
export { type EwpToolsOptions, ewpTools } from './tools/ewp-tools.js';
export { type AdkToolArgs, gate } from './gate/gate-tool.js';
export { observe } from './observe/observe-tool.js';
export { type WarrantCallbacks, type WarrantCallbacksOptions, warrantCallbacks } from './gate/warrant-callbacks.js';
export {
  type BlockCode,
  type ConsequentialCheck,
  type ConsequentialExpectation,
  consequentialActionAllowed,
  GATE_STATE_KEY,
  type GateState,
  type StateLike,
} from './gate/gate-state.js';
export type { GateOptions, GateRefusal, ObserveOptions } from '@ewp/tools';
