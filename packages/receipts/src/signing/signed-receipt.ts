import { receiptPayload, receiptsEqual, verifyReceipt, verifyVerificationReceipt } from '../checkpoint/receipt-checks.js';
import type { Checkpoint } from '../checkpoint/model.js';
import type { ProofReceipt, VerificationResult } from '../checkpoint/verification.js';
import {
  type ReceiptSigner,
  type SignatureCheck,
  type SignatureVerifier,
  type SignedEnvelope,
  signPayload,
  signedBytes,
  signedPayloadOf,
  verifyEnvelope,
} from './envelope.js';

/** A ProofReceipt with an issuer signature (docs/spec/receipts.md §5.1). */
export type SignedProofReceipt = SignedEnvelope<ProofReceipt>;

/** The label of proof-receipt signatures: `evidencebound:signed-receipt:EBCJ-1:` + version. */
const SIGNED_RECEIPT_LABEL = 'evidencebound:signed-receipt:EBCJ-1:';

/** The exact bytes an issuer signs for this envelope (docs/spec/receipts.md §5.1). */
export function signedReceiptBytes(envelope: Omit<SignedProofReceipt, 'signature'>): Uint8Array {
  return signedBytes(SIGNED_RECEIPT_LABEL, envelope.signature_version, signedPayloadOf(receiptPayload(envelope.receipt), envelope));
}

/**
 * Signs a proof receipt (docs/spec/receipts.md §5.2). The signer's algorithm and key id are trimmed; those are stored
 * and signed.
 * @throws {SigningError} when the key is not ACTIVE, metadata is blank, the receipt's versions are
 * not "1"/"EBCJ-1", or the signer returns no bytes.
 */
export function signReceipt(receipt: ProofReceipt, signer: ReceiptSigner): SignedProofReceipt {
  return signPayload(SIGNED_RECEIPT_LABEL, receipt, receiptPayload(receipt), signer);
}

function isProofEnvelope(item: unknown): item is SignedProofReceipt {
  return typeof item === 'object' && item !== null && 'receipt' in item && 'signature' in item;
}

/**
 * Verifies a signed proof receipt against a checkpoint (and optionally its verification result),
 * failing closed in the order of docs/spec/receipts.md §5.3. A bare ProofReceipt is never verified: it is UNSIGNED at
 * best.
 */
export function verifySignedReceipt(
  item: SignedProofReceipt | ProofReceipt,
  cp: Checkpoint,
  verifier: SignatureVerifier,
  verificationResult?: VerificationResult | null,
): SignatureCheck {
  const binds = (receipt: ProofReceipt): boolean => {
    if (verificationResult == null) return verifyReceipt(receipt, cp);
    return receiptsEqual(verificationResult.receipt, receipt) && verifyVerificationReceipt(verificationResult, cp);
  };
  return verifyEnvelope(SIGNED_RECEIPT_LABEL, item, isProofEnvelope, receiptPayload, binds, verifier);
}
