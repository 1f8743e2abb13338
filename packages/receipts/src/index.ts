/**
 * @ewp/receipts — make a warrant judgement checkable later and invalidate it exactly when its
 * evidence changes: EvidenceBound checkpoints and verification, proof and Ed25519-signed receipts,
 * warrant receipts, a dependency graph with linear-time recovery planning, lineage-driven
 * re-evaluation, a replay guard and a durable SQLite receipt store. Canonical bytes, digests and the
 * hash-chained audit log are `@ewp/canonical`'s.
 * @packageDocumentation
 */

// Errors (every one an @ewp/core EwpError: code, path, cause, isInstance)
export {
  type CheckpointCode,
  CheckpointError,
  GraphError,
  RECEIPTS_ERROR_CODES,
  type ReceiptsErrorCode,
  PersistenceError,
  PersistenceIntegrityError,
  ReceiptFormatError,
  ReceiptsError,
  ReplayConflict,
  SigningError,
  TimestampError,
  UnsupportedPersistenceSchema,
} from './errors.js';

// Checkpoints, verification, proof receipts
export {
  type Checkpoint,
  type CheckpointInput,
  type EvidenceInput,
  type EvidenceRecord,
  type PolicyBinding,
  type PolicyInput,
  type ProvenanceInput,
  type ProvenanceRecord,
  checkpoint,
  evidenceRecord,
  policyBinding,
  provenanceRecord,
} from './checkpoint/model.js';
export { checkpointDigest, evidenceDigest } from './checkpoint/digests.js';
export {
  type ApplicabilityStatus,
  type EvidenceAssessment,
  type EvidenceState,
  type IntegrityStatus,
  type ProofReceipt,
  type RecoveryAction,
  type VerificationResult,
  type VerifyCheckpointOptions,
  verifyCheckpoint,
} from './checkpoint/verification.js';
export { verifyReceipt, verifyVerificationReceipt } from './checkpoint/receipt-checks.js';
export { decodeCheckpoint, decodeVerificationResult } from './checkpoint/decode.js';
export { type CreateCheckpointInput, EvidenceBound, type EvidenceBoundEvent } from './checkpoint/evidence-bound.js';

// Signatures
export {
  KEY_STATES,
  type KeyState,
  type ProviderVerdict,
  type ReceiptSigner,
  type SignatureCheck,
  type SignatureStatus,
  type SignatureVerifier,
  type SignedEnvelope,
} from './signing/envelope.js';
export { Ed25519Signer, Ed25519Verifier, type RegisteredKey } from './signing/key-registry.js';
export { type SignedProofReceipt, signReceipt, verifySignedReceipt } from './signing/signed-receipt.js';

// Dependency graph and recovery
export { DependencyGraph, type GraphNode } from './graph/dependency-graph.js';
export {
  type InvalidationReason,
  type PlanRecoveryOptions,
  RecoveryPlan,
  actionAfterRecovery,
  planRecovery,
} from './recovery/recovery-plan.js';

// Replay guard and the SQLite receipt store
export { ReplayGuard, type ReplayOutcome } from './replay/replay-guard.js';
export {
  type CrashPoint,
  SqliteReceiptStore,
  type SqliteReceiptStoreOptions,
  openSqliteReceiptStore,
} from './persistence/sqlite-receipt-store.js';

// Warrant layer
export { ewpViewDigest, ewpWarrantDigest } from './warrant/view-projection.js';
export {
  type IssuedWarrantReceipt,
  type SignedWarrantReceipt,
  type WarrantReceipt,
  type WarrantReceiptVerification,
  issueWarrantReceipt,
  verifyIssuedWarrantReceipt,
  verifyWarrantReceipt,
  warrantReceiptDigest,
  warrantReceiptFor,
} from './warrant/warrant-receipt.js';
export {
  type GatedAction,
  type IgnoredLineageEdge,
  type LatestViewSource,
  type PropositionLineage,
  type ReevaluationPlan,
  actionNode,
  lineageFromViews,
  planReevaluation,
  planReevaluationFromStore,
  propositionNode,
} from './lineage/lineage-reevaluation.js';

// Decisions that last: records of gate decisions, re-verification, the recovery gate
export {
  type ConsultedWarrant,
  type DecisionAction,
  type DecisionBasis,
  type DecisionRecord,
  type DecisionRecordInput,
  type DecisionRiskPolicy,
  type DecisionSignature,
  type DecisionVerification,
  type RecoveryGateRecord,
  buildDecisionRecord,
  consultedWarrant,
  decisionAction,
  decisionId,
  decisionRiskPolicy,
  signDecisionRecord,
  verifyDecisionRecord,
} from './decision/decision-record.js';
export { effectiveDecision, minDecision } from './decision/effective-decision.js';
export {
  type WarrantReverification,
  reverifyWarrant,
} from './decision/warrant-reverification.js';
export { type DecisionRecoveryGate, type DecisionRecoveryInput, decisionRecoveryGate } from './decision/decision-recovery.js';
export { INVALIDATION_REASONS } from './recovery/recovery-plan.js';
export { operationDigest } from './replay/replay-guard.js';
