import { domainDigest, EBCJ1_VERSION } from '@ewp/canonical';
import { sortedByCodePoint } from '@ewp/core';
import { checkpointDigest, evidenceDigest } from './digests.js';
import { parseInstantMicros } from './instant.js';
import { type Checkpoint, type EvidenceRecord, type PolicyBinding, isProvenanceComplete } from './model.js';

/** Evidence states of docs/spec/receipts.md §3.3. */
export type EvidenceState = 'UNCHANGED' | 'NEW' | 'CHANGED' | 'STALE' | 'MISSING' | 'REFUTED';
/** Historical integrity of the protected payload. UNVERIFIED exists but is never produced. */
export type IntegrityStatus = 'VERIFIED' | 'FAILED' | 'UNVERIFIED';
/** Whether the checkpoint still applies now. */
export type ApplicabilityStatus = 'VERIFIED' | 'REVIEW_REQUIRED' | 'BLOCKED';
/** What a caller may do with the checkpoint's output. */
export type RecoveryAction = 'ALLOW' | 'REVIEW_REQUIRED' | 'BLOCK';

/** The verdict on one evidence id. */
export interface EvidenceAssessment {
  evidence_id: string;
  state: EvidenceState;
  snapshot_digest: string | null;
  current_digest: string | null;
  reason: string;
}

/** Binds a checkpoint and its verification (docs/spec/receipts.md §4.2). */
export interface ProofReceipt {
  checkpoint_id: string;
  checkpoint_digest: string;
  verification_digest: string;
  policy_id: string;
  policy_version: string;
  canonicalization_version: string;
  receipt_version: string;
}

/** The outcome of {@link verifyCheckpoint}, in the reference's serialized shape. */
export interface VerificationResult {
  checkpoint_id: string;
  integrity: IntegrityStatus;
  applicability: ApplicabilityStatus;
  action: RecoveryAction;
  provenance_complete: boolean;
  policy_compatible: boolean;
  evidence: EvidenceAssessment[];
  reasons: string[];
  receipt: ProofReceipt;
}

/** Inputs of {@link verifyCheckpoint} besides the checkpoint (docs/spec/receipts.md §3.1). */
export interface VerifyCheckpointOptions {
  /**
   * Evidence available now, by id. Absent/undefined/null: the snapshot records are their own current
   * records. An empty map: nothing is current.
   */
  currentEvidence?: ReadonlyMap<string, EvidenceRecord> | Readonly<Record<string, EvidenceRecord>> | null;
  /** When given, the checkpoint's policy id and version must equal it. */
  expectedPolicy?: Pick<PolicyBinding, 'policy_id' | 'version'> | null;
  /** A receipt kept independently; only its `checkpoint_digest` is compared. */
  priorReceipt?: Pick<ProofReceipt, 'checkpoint_digest'> | null;
  /** RFC 3339 instant with an offset. Without it, staleness is never evaluated. */
  now?: string | null;
}

const REASONS = {
  identityMismatch: 'current evidence identity does not match the protected snapshot',
  missing: 'current evidence is missing',
  refuted: 'current evidence explicitly refutes the snapshot',
  stale: 'current evidence is past valid_until',
  unchanged: 'current evidence matches the protected snapshot',
  changed: 'current evidence digest differs from the protected snapshot',
  new: 'current evidence was not present in the protected snapshot',
  duplicate: 'checkpoint contains duplicate evidence ids',
  integrity: 'protected checkpoint payload does not match prior receipt',
  keyMismatch: 'current evidence mapping key does not match record evidence_id',
  noEvidence: 'checkpoint has no evidence',
  provenance: 'required provenance is incomplete',
  policy: 'checkpoint policy binding does not match expected policy',
} as const;

function toMap(current: VerifyCheckpointOptions['currentEvidence'], cp: Checkpoint): { map: Map<string, EvidenceRecord>; given: boolean } {
  if (current === undefined || current === null) {
    const map = new Map<string, EvidenceRecord>();
    for (const e of cp.evidence) map.set(e.evidence_id, e); // later duplicate wins
    return { map, given: false };
  }
  if (current instanceof Map) return { map: new Map(current), given: true };
  return { map: new Map(Object.entries(current as Record<string, EvidenceRecord>)), given: true };
}

/**
 * Verifies a checkpoint against the evidence available now (docs/spec/receipts.md §3). Pure: no clock, no I/O.
 * @throws {TimestampError} when `now` or a needed `valid_until` is naive or malformed.
 */
export function verifyCheckpoint(cp: Checkpoint, options: VerifyCheckpointOptions = {}): VerificationResult {
  const now = options.now == null ? null : parseInstantMicros(options.now, 'now must be timezone-aware', 'now');
  const { map: current, given } = toMap(options.currentEvidence, cp);
  const digest = checkpointDigest(cp);

  const ids = new Set<string>();
  let duplicate = false;
  for (const e of cp.evidence) {
    if (ids.has(e.evidence_id)) duplicate = true;
    ids.add(e.evidence_id);
  }
  const integrity: IntegrityStatus = options.priorReceipt != null && options.priorReceipt.checkpoint_digest !== digest ? 'FAILED' : 'VERIFIED';
  let identityMismatch = false;
  for (const [key, record] of current) if (key !== record.evidence_id) identityMismatch = true;

  let provenanceComplete: boolean;
  if (cp.evidence.length === 0) provenanceComplete = false;
  else {
    provenanceComplete = current.size > 0;
    for (const e of cp.evidence) if (!isProvenanceComplete(e.provenance)) provenanceComplete = false;
    for (const e of current.values()) if (!isProvenanceComplete(e.provenance)) provenanceComplete = false;
  }
  const policyCompatible =
    options.expectedPolicy == null || (options.expectedPolicy.policy_id === cp.policy.policy_id && options.expectedPolicy.version === cp.policy.version);

  const assessments: EvidenceAssessment[] = [];
  for (const snap of cp.evidence) assessments.push(assess(snap, current.get(snap.evidence_id), now));
  if (given) {
    const fresh = sortedByCodePoint([...current.keys()].filter((k) => !ids.has(k)));
    for (const key of fresh) {
      const rec = current.get(key) as EvidenceRecord;
      assessments.push({
        evidence_id: key,
        state: 'NEW',
        snapshot_digest: null,
        current_digest: evidenceDigest(rec),
        reason: REASONS.new,
      });
    }
  }

  const reasons: string[] = [];
  if (duplicate) reasons.push(REASONS.duplicate);
  if (integrity === 'FAILED') reasons.push(REASONS.integrity);
  if (identityMismatch) reasons.push(REASONS.keyMismatch);
  if (cp.evidence.length === 0) reasons.push(REASONS.noEvidence);
  const provenanceFails = cp.policy.require_provenance && !provenanceComplete;
  if (provenanceFails) reasons.push(REASONS.provenance);
  if (!policyCompatible) reasons.push(REASONS.policy);
  let blocking = false;
  let reviewing = false;
  for (const a of assessments) {
    if (a.state === 'MISSING' || a.state === 'REFUTED') blocking = true;
    else if (a.state === 'CHANGED' || a.state === 'STALE' || a.state === 'NEW') reviewing = true;
    if (a.state !== 'UNCHANGED') reasons.push(`${a.evidence_id}: ${a.state}`);
  }

  let action: RecoveryAction;
  let applicability: ApplicabilityStatus;
  if (integrity === 'FAILED' || duplicate || identityMismatch || blocking || provenanceFails) {
    action = 'BLOCK';
    applicability = 'BLOCKED';
  } else if (!policyCompatible || reviewing) {
    action = 'REVIEW_REQUIRED';
    applicability = 'REVIEW_REQUIRED';
  } else {
    action = 'ALLOW';
    applicability = 'VERIFIED';
  }

  const body = {
    checkpoint_id: cp.checkpoint_id,
    integrity,
    applicability,
    action,
    provenance_complete: provenanceComplete,
    policy_compatible: policyCompatible,
    evidence: assessments,
    reasons: sortedByCodePoint([...new Set(reasons)]),
  };
  const verificationDigest = domainDigest('verification', verificationPayloadOf(body, digest));
  return {
    ...body,
    receipt: {
      checkpoint_id: cp.checkpoint_id,
      checkpoint_digest: digest,
      verification_digest: verificationDigest,
      policy_id: cp.policy.policy_id,
      policy_version: cp.policy.version,
      canonicalization_version: EBCJ1_VERSION,
      receipt_version: '1',
    },
  };
}

function assess(snap: EvidenceRecord, cur: EvidenceRecord | undefined, now: bigint | null): EvidenceAssessment {
  const snapshotDigest = evidenceDigest(snap);
  const base = { evidence_id: snap.evidence_id, snapshot_digest: snapshotDigest };
  if (cur !== undefined && cur.evidence_id !== snap.evidence_id) {
    return { ...base, state: 'MISSING', current_digest: null, reason: REASONS.identityMismatch };
  }
  if (cur === undefined || cur.payload === null) {
    return { ...base, state: 'MISSING', current_digest: null, reason: REASONS.missing };
  }
  // Parsed before the refutation check and even without `now`, as the reference does.
  const validUntil = cur.valid_until == null ? null : parseInstantMicros(cur.valid_until, undefined, `${snap.evidence_id}.valid_until`);
  const currentDigest = evidenceDigest(cur);
  if (cur.explicitly_refuted) return { ...base, state: 'REFUTED', current_digest: currentDigest, reason: REASONS.refuted };
  if (now !== null && validUntil !== null && validUntil < now) {
    return { ...base, state: 'STALE', current_digest: currentDigest, reason: REASONS.stale };
  }
  if (currentDigest === snapshotDigest) {
    return { ...base, state: 'UNCHANGED', current_digest: currentDigest, reason: REASONS.unchanged };
  }
  return { ...base, state: 'CHANGED', current_digest: currentDigest, reason: REASONS.changed };
}

/** The nine-key verification payload of docs/spec/receipts.md §4.1, from a result's fields and a checkpoint digest. */
export function verificationPayloadOf(result: Omit<VerificationResult, 'receipt'>, checkpointDigestHex: string): Record<string, unknown> {
  return {
    checkpoint_id: result.checkpoint_id,
    checkpoint_digest: checkpointDigestHex,
    integrity: result.integrity,
    applicability: result.applicability,
    action: result.action,
    provenance_complete: result.provenance_complete,
    policy_compatible: result.policy_compatible,
    evidence: result.evidence.map((a) => ({
      evidence_id: a.evidence_id,
      state: a.state,
      snapshot_digest: a.snapshot_digest,
      current_digest: a.current_digest,
      reason: a.reason,
    })),
    reasons: [...result.reasons],
  };
}
