/** Decisions that last (docs/spec/receipts.md §12): recorded gate decisions, re-verification, recovery, guarded runs. */
export { DecisionError, type DecisionErrorCode } from './decision-error.js';
export { DECISION_ENTRY_KINDS } from './entry-kinds.js';
export {
  type DecisionFacts,
  DecisionLedger,
  decisionFactsFor,
  isClean,
  type StoredDecision,
  type StoredReevaluation,
  storedDecision,
} from './decision-ledger.js';
export { type DecisionRecording, type DecisionRequest, decide, type RecordedDecision } from './recording-gate.js';
export { type NewestViews, type RecoveryCache, recoveryCache, recoveryGateOf, reevaluationResult, retractionGate } from './recovery-check.js';
export {
  type DecisionHistory,
  type DecisionQuery,
  type DecisionSummary,
  decisionHistory,
  decisionSummary,
  listDecisions,
  readDecision,
  verifyDecision,
} from './decision-store.js';
export { changeKeyStates, type KeyStateChange, type KeyStateView, ledgerKeyVerifier, listKeyStates, recordKeyState } from './key-states.js';
export { type Reevaluation, type Retraction, recordRetraction, reevaluate } from './reevaluation.js';
export { type HeldAction, type LedgerRecoveryOptions, type LedgerRecoveryPlan, planLedgerRecovery, type ReevaluatedAction } from './ledger-recovery-plan.js';
export {
  type CallOutcome,
  callClaimId,
  claimDecision,
  type Confirmation,
  type GuardedRun,
  type GuardedRunOptions,
  recordCallOutcome,
  runDecision,
  runGuarded,
} from './run-guarded.js';
