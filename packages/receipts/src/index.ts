/**
 * @ewp/receipts — make a warrant judgement checkable later and invalidate it exactly when its
 * evidence changes: EBCJ-1 canonical bytes and domain digests (byte-exact with the EvidenceBound
 * reference), RFC 8785 for float-carrying EWP JSON, checkpoints and verification, proof and
 * Ed25519-signed receipts, warrant receipts, dependency graph and linear-time recovery planning,
 * replay guard (in memory and durable on SQLite), and the hash-chained audit log.
 * @packageDocumentation
 */

// Canonical bytes and digests (SPEC §1)
export { CanonicalizationError, type CanonicalizationCode } from './canonical/canonicalization-error.js';
export { compareCodePoints, sortByCodePoint } from './canonical/code-point-order.js';
export { EBCJ1_MAX_DEPTH, EBCJ1_MAX_INTEGER_DIGITS, EBCJ1_VERSION, ebcj1Bytes, ebcj1String } from './canonical/ebcj1.js';
export { jcsBytes, jcsString } from './canonical/jcs.js';
export { JsonFloat, type ReadJsonOptions, readJsonExact } from './canonical/read-json.js';
export {
  EWP_DOMAINS,
  type EwpDomain,
  REFERENCE_DOMAINS,
  type ReferenceDomain,
  digestCanonicalText,
  domainDigest,
  domainPrefix,
  ebcj1Digest,
  isDigestHex,
  jcsDigest,
  sha256Hex,
} from './canonical/digest.js';

// Errors
export {
  CheckpointError,
  GraphError,
  PersistenceError,
  PersistenceIntegrityError,
  ReceiptFormatError,
  ReceiptsError,
  ReplayConflict,
  SigningError,
  TimestampError,
  UnsupportedPersistenceSchema,
} from './errors.js';

// Checkpoints, verification, proof receipts (SPEC §2–4)
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
  checkpointPayload,
  evidencePayload,
  evidenceRecord,
  isProvenanceComplete,
  policyBinding,
  policyPayload,
  provenancePayload,
  provenanceRecord,
} from './checkpoint/model.js';
export { checkpointDigest, evidenceDigest } from './checkpoint/digests.js';
export { type Micros, parseInstantMicros } from './checkpoint/instant.js';
export {
  type ApplicabilityStatus,
  type EvidenceAssessment,
  type EvidenceState,
  type IntegrityStatus,
  type ProofReceipt,
  REASONS,
  type RecoveryAction,
  type VerificationResult,
  type VerifyCheckpointOptions,
  verificationPayloadOf,
  verifyCheckpoint,
} from './checkpoint/verification.js';
export { receiptPayload, receiptsEqual, verifyReceipt, verifyVerificationReceipt } from './checkpoint/receipt-checks.js';
export {
  decodeCheckpoint,
  decodeEvidenceRecord,
  decodePolicyBinding,
  decodeProofReceipt,
  decodeProvenance,
  decodeVerificationBody,
  decodeVerificationResult,
} from './checkpoint/decode.js';
export { type CreateCheckpointInput, EvidenceBound, type EvidenceBoundEvent } from './checkpoint/evidence-bound.js';

// Signatures (SPEC §5)
export { decodeBase64UrlLenient, encodeBase64Url } from './signing/base64url.js';
export { ed25519PrivateKey, ed25519PublicKey, ed25519RawPublicKey, ed25519Sign, ed25519Verify } from './signing/ed25519.js';
export {
  KEY_STATES,
  type KeyState,
  type ProviderVerdict,
  type ReceiptSigner,
  SIGNATURE_ENCODING,
  SIGNATURE_VERSION,
  type SignatureCheck,
  type SignatureStatus,
  type SignatureVerifier,
  type SignedEnvelope,
} from './signing/envelope.js';
export { Ed25519Signer, Ed25519Verifier, type RegisteredKey } from './signing/key-registry.js';
export {
  SIGNED_RECEIPT_LABEL,
  type SignedProofReceipt,
  signReceipt,
  signedReceiptBytes,
  verifySignedReceipt,
} from './signing/signed-receipt.js';

// Graph and recovery (SPEC §6–7)
export { DependencyGraph, type GraphNode } from './graph/dependency-graph.js';
export {
  INVALIDATION_REASONS,
  type InvalidationReason,
  type PlanRecoveryOptions,
  RecoveryPlan,
  actionAfterRecovery,
  planRecovery,
} from './recovery/recovery-plan.js';

// Replay guard and persistence (SPEC §8–9)
export { ReplayGuard, type ReplayOutcome, operationDigest } from './replay/replay-guard.js';
export {
  CRASH_POINTS,
  type CrashPoint,
  SqliteReceiptStore,
  type SqliteDatabase,
  type SqliteReceiptStoreOptions,
  openSqliteReceiptStore,
} from './persistence/sqlite-receipt-store.js';

// Audit chain (SPEC §11)
export {
  type AuditAnchor,
  AuditChain,
  type AuditEntry,
  type AuditFailureReason,
  type AuditVerification,
  EMPTY_ANCHOR,
  GENESIS_HASH,
  auditEntryHash,
  nextAuditEntry,
  verifyAuditChain,
} from './audit/audit-chain.js';

// Warrant layer (SPEC §12)
export {
  ewpViewDigest,
  ewpViewProjection,
  ewpWarrantDigest,
  normativeWarrantView,
  projectLineage,
  projectRecords,
  projectViewMeta,
} from './warrant/view-projection.js';
export {
  type IssuedWarrantReceipt,
  SIGNED_WARRANT_RECEIPT_LABEL,
  type SignedWarrantReceipt,
  type WarrantReceipt,
  type WarrantReceiptVerification,
  issueWarrantReceipt,
  verifyWarrantReceipt,
  warrantReceiptDigest,
  warrantReceiptPayload,
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
