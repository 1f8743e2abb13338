import { domainDigest, EBCJ1_VERSION, isDigestHex } from '@ewp/canonical';
import { checkpointDigest } from './digests.js';
import type { Checkpoint } from './model.js';
import { type ProofReceipt, type VerificationResult, verificationPayloadOf } from './verification.js';

/**
 * True only if the receipt binds this exact checkpoint (docs/spec/receipts.md §4.3): version "1", same id, recomputed
 * checkpoint digest, both digests well-formed, same policy identity, canonicalization "EBCJ-1".
 * Like the reference it does not recompute `verification_digest`; use {@link verifyVerificationReceipt}.
 */
export function verifyReceipt(receipt: ProofReceipt, cp: Checkpoint): boolean {
  if (receipt === null || typeof receipt !== 'object') return false;
  if (receipt.receipt_version !== '1') return false;
  if (receipt.checkpoint_id !== cp.checkpoint_id) return false;
  if (!isDigestHex(receipt.checkpoint_digest) || !isDigestHex(receipt.verification_digest)) return false;
  if (receipt.policy_id !== cp.policy.policy_id || receipt.policy_version !== cp.policy.version) return false;
  if (receipt.canonicalization_version !== EBCJ1_VERSION) return false;
  try {
    return receipt.checkpoint_digest === checkpointDigest(cp);
  } catch {
    return false;
  }
}

/**
 * True only if the result was issued for this exact checkpoint and none of its fields changed since:
 * its receipt binds `cp` and the verification payload rebuilt from the result hashes to the receipt's
 * `verification_digest` (docs/spec/receipts.md §4.3).
 */
export function verifyVerificationReceipt(result: VerificationResult, cp: Checkpoint): boolean {
  if (result === null || typeof result !== 'object') return false;
  if (result.checkpoint_id !== cp.checkpoint_id) return false;
  if (!verifyReceipt(result.receipt, cp)) return false;
  try {
    const payload = verificationPayloadOf(result, result.receipt.checkpoint_digest);
    return domainDigest('verification', payload) === result.receipt.verification_digest;
  } catch {
    return false;
  }
}

/** Field-by-field equality of two proof receipts (the seven keys). */
export function receiptsEqual(a: ProofReceipt, b: ProofReceipt): boolean {
  return (
    a.checkpoint_id === b.checkpoint_id &&
    a.checkpoint_digest === b.checkpoint_digest &&
    a.verification_digest === b.verification_digest &&
    a.policy_id === b.policy_id &&
    a.policy_version === b.policy_version &&
    a.canonicalization_version === b.canonicalization_version &&
    a.receipt_version === b.receipt_version
  );
}

/** The serialized form of a proof receipt (exactly its seven keys). */
export function receiptPayload(r: ProofReceipt): Record<string, unknown> {
  return {
    checkpoint_id: r.checkpoint_id,
    checkpoint_digest: r.checkpoint_digest,
    verification_digest: r.verification_digest,
    policy_id: r.policy_id,
    policy_version: r.policy_version,
    canonicalization_version: r.canonicalization_version,
    receipt_version: r.receipt_version,
  };
}
