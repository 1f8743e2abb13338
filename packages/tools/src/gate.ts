/**
 * `@ewp/tools/gate`: the warrant gate alone (decide, record, observe an outcome), without the tool
 * registry and its zod schemas, for a caller that starts a process per decision (the Claude Code hook,
 * `ewp hook pre-tool-use`). The same functions as the package's root entry, which re-exports them all.
 * @packageDocumentation
 */
export { type ClaimScope, claimProposition, type Observation, type RecordedObservation, recordObservation } from './claim.js';
export * from './decisions/index.js';
export {
  decideGate,
  denyReason,
  type GateCall,
  type GateDecision,
  type GateRefusal,
  gateRefusal,
  recoveryReason,
  ruleReason,
} from './gate-decision.js';
export {
  checkGateOptions,
  checkObserveOptions,
  checkStoreOption,
  type GateAction,
  type GateOptions,
  type GateRiskPolicy,
  type ObserveOptions,
  observeResult,
  type ResolvedGate,
  resolveGate,
  wireAction,
  wireRiskPolicy,
} from './gate-options.js';
