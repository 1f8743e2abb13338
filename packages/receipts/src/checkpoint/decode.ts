import { ReceiptFormatError } from '../errors.js';
import type { Checkpoint, EvidenceRecord, PolicyBinding, ProvenanceRecord } from './model.js';
import type {
  ApplicabilityStatus,
  EvidenceAssessment,
  EvidenceState,
  IntegrityStatus,
  ProofReceipt,
  RecoveryAction,
  VerificationResult,
} from './verification.js';

/*
 * Decoders from untrusted JSON values (persisted rows, CLI input) to the typed records. Every field
 * is checked; the first problem is reported with its path. Digests are never trusted from input:
 * callers re-derive them (verifyReceipt / verifyVerificationReceipt).
 */

type Obj = Record<string, unknown>;

function object(v: unknown, path: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ReceiptFormatError(path, 'must be an object');
  return v as Obj;
}
function str(o: Obj, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new ReceiptFormatError(`${path}.${key}`, 'must be a string');
  return v;
}
function strOrNull(o: Obj, key: string, path: string): string | null {
  const v = o[key];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new ReceiptFormatError(`${path}.${key}`, 'must be a string or null');
  return v;
}
function bool(o: Obj, key: string, path: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new ReceiptFormatError(`${path}.${key}`, 'must be a boolean');
  return v;
}
function strList(o: Obj, key: string, path: string): string[] {
  const v = o[key];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new ReceiptFormatError(`${path}.${key}`, 'must be a list of strings');
  }
  return [...v];
}
function oneOf<T extends string>(o: Obj, key: string, path: string, allowed: readonly T[], what: string): T {
  const v = o[key];
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new ReceiptFormatError(`${path}.${key}`, `unknown ${what}`);
  }
  return v as T;
}
function has(o: Obj, key: string, path: string): unknown {
  if (!Object.hasOwn(o, key)) throw new ReceiptFormatError(`${path}.${key}`, 'is missing');
  return o[key];
}

/** A provenance record from a JSON value. @throws {ReceiptFormatError} */
function decodeProvenance(value: unknown, path = 'provenance'): ProvenanceRecord {
  const o = object(value, path);
  const metadata = o.metadata ?? {};
  return {
    source: strOrNull(o, 'source', path),
    locator: strOrNull(o, 'locator', path),
    retrieved_at: strOrNull(o, 'retrieved_at', path),
    content_type: strOrNull(o, 'content_type', path),
    metadata: object(metadata, `${path}.metadata`),
  };
}

/** An evidence record from a JSON value. @throws {ReceiptFormatError} */
function decodeEvidenceRecord(value: unknown, path = 'evidence'): EvidenceRecord {
  const o = object(value, path);
  const provenance = o.provenance;
  return {
    evidence_id: str(o, 'evidence_id', path),
    payload: has(o, 'payload', path),
    provenance: provenance == null ? null : decodeProvenance(provenance, `${path}.provenance`),
    observed_at: strOrNull(o, 'observed_at', path),
    valid_until: strOrNull(o, 'valid_until', path),
    explicitly_refuted: o.explicitly_refuted === undefined ? false : bool(o, 'explicitly_refuted', path),
  };
}

/** A policy binding from a JSON value. @throws {ReceiptFormatError} */
function decodePolicyBinding(value: unknown, path = 'policy'): PolicyBinding {
  const o = object(value, path);
  return {
    policy_id: str(o, 'policy_id', path),
    version: str(o, 'version', path),
    require_provenance: o.require_provenance === undefined ? true : bool(o, 'require_provenance', path),
    consequential: o.consequential === undefined ? true : bool(o, 'consequential', path),
  };
}

/** A checkpoint from a JSON value (its serialized form). @throws {ReceiptFormatError} */
export function decodeCheckpoint(value: unknown, path = 'checkpoint'): Checkpoint {
  const o = object(value, path);
  const evidence = has(o, 'evidence', path);
  if (!Array.isArray(evidence)) throw new ReceiptFormatError(`${path}.evidence`, 'must be a list');
  return {
    checkpoint_id: str(o, 'checkpoint_id', path),
    agent: str(o, 'agent', path),
    evidence: evidence.map((e, i) => decodeEvidenceRecord(e, `${path}.evidence[${i}]`)),
    output: has(o, 'output', path),
    policy: decodePolicyBinding(has(o, 'policy', path), `${path}.policy`),
    depends_on: o.depends_on === undefined ? [] : strList(o, 'depends_on', path),
    operation_id: strOrNull(o, 'operation_id', path),
    schema_version: o.schema_version === undefined ? '1' : str(o, 'schema_version', path),
  };
}

/** A proof receipt from a JSON value. @throws {ReceiptFormatError} */
export function decodeProofReceipt(value: unknown, path = 'receipt'): ProofReceipt {
  const o = object(value, path);
  return {
    checkpoint_id: str(o, 'checkpoint_id', path),
    checkpoint_digest: str(o, 'checkpoint_digest', path),
    verification_digest: str(o, 'verification_digest', path),
    policy_id: str(o, 'policy_id', path),
    policy_version: str(o, 'policy_version', path),
    canonicalization_version: str(o, 'canonicalization_version', path),
    receipt_version: str(o, 'receipt_version', path),
  };
}

const STATES: readonly EvidenceState[] = ['UNCHANGED', 'NEW', 'CHANGED', 'STALE', 'MISSING', 'REFUTED'];
const INTEGRITY: readonly IntegrityStatus[] = ['VERIFIED', 'FAILED', 'UNVERIFIED'];
const APPLICABILITY: readonly ApplicabilityStatus[] = ['VERIFIED', 'REVIEW_REQUIRED', 'BLOCKED'];
const ACTIONS: readonly RecoveryAction[] = ['ALLOW', 'REVIEW_REQUIRED', 'BLOCK'];

function decodeAssessment(value: unknown, path: string): EvidenceAssessment {
  const o = object(value, path);
  return {
    evidence_id: str(o, 'evidence_id', path),
    state: oneOf(o, 'state', path, STATES, 'evidence assessment state'),
    snapshot_digest: strOrNull(o, 'snapshot_digest', path),
    current_digest: strOrNull(o, 'current_digest', path),
    reason: str(o, 'reason', path),
  };
}

/** The eight result fields without the receipt. @throws {ReceiptFormatError} */
export function decodeVerificationBody(value: unknown, path = 'verification'): Omit<VerificationResult, 'receipt'> {
  const o = object(value, path);
  const evidence = o.evidence;
  if (!Array.isArray(evidence)) throw new ReceiptFormatError(`${path}.evidence`, 'must be a list');
  return {
    checkpoint_id: str(o, 'checkpoint_id', path),
    integrity: oneOf(o, 'integrity', path, INTEGRITY, 'integrity status'),
    applicability: oneOf(o, 'applicability', path, APPLICABILITY, 'applicability status'),
    action: oneOf(o, 'action', path, ACTIONS, 'recovery action'),
    provenance_complete: bool(o, 'provenance_complete', path),
    policy_compatible: bool(o, 'policy_compatible', path),
    evidence: evidence.map((e, i) => decodeAssessment(e, `${path}.evidence[${i}]`)),
    reasons: strList(o, 'reasons', path),
  };
}

/** A full verification result (with its receipt) from a JSON value. @throws {ReceiptFormatError} */
export function decodeVerificationResult(value: unknown, path = 'verification'): VerificationResult {
  const body = decodeVerificationBody(value, path);
  return { ...body, receipt: decodeProofReceipt(object(value, path).receipt, `${path}.receipt`) };
}
