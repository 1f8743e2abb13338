import { domainDigest } from '@ewp/canonical';
import {
  type EvidenceView,
  POLICY_ID,
  POLICY_VERSION,
  PROTOCOL_VERSION,
  type Policy,
  REFERENCE_V2,
  type WarrantView,
  decodeView,
  normalizeWarrantView,
  warrantNow,
} from '@ewp/core';
import { type ReceiptSigner, type SignatureCheck, type SignatureVerifier, type SignedEnvelope, signPayload, verifyEnvelope } from '../signing/envelope.js';
import { ewpViewDigest, ewpWarrantDigest } from './view-projection.js';

/** Binds a view, a policy identity, T and the normative WarrantView (docs/spec/receipts.md §12.2). */
export interface WarrantReceipt {
  receipt_version: '1';
  canonicalization_version: 'EBCJ-1';
  protocol_version: string;
  proposition_id: string;
  view_id: string;
  view_digest: string;
  policy_id: string;
  policy_version: string;
  evaluated_at: string;
  warrant_digest: string;
}

/** A warrant receipt with an issuer signature (docs/spec/receipts.md §5 envelope, warrant-specific prefix). */
export type SignedWarrantReceipt = SignedEnvelope<WarrantReceipt>;

/** Signature label: `UTF8("ewp:signed-warrant-receipt:EBCJ-1:1") || 0x00` never verifies as a proof receipt. */
const SIGNED_WARRANT_RECEIPT_LABEL = 'ewp:signed-warrant-receipt:EBCJ-1:';

const RECEIPT_FIELDS = [
  'receipt_version',
  'canonicalization_version',
  'protocol_version',
  'proposition_id',
  'view_id',
  'view_digest',
  'policy_id',
  'policy_version',
  'evaluated_at',
  'warrant_digest',
] as const;

/** The serialized receipt (exactly its ten keys). */
function warrantReceiptPayload(r: WarrantReceipt): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of RECEIPT_FIELDS) out[k] = r[k];
  return out;
}

/** `digest(WarrantReceipt, "ewp-warrant-receipt")`: the receipt's identifier. */
export function warrantReceiptDigest(r: WarrantReceipt): string {
  return domainDigest('ewp-warrant-receipt', warrantReceiptPayload(r));
}

/** What {@link issueWarrantReceipt} returns. */
export interface IssuedWarrantReceipt {
  receipt: WarrantReceipt;
  receipt_digest: string;
  /** The normalized WarrantView that was bound. */
  warrant: WarrantView;
  /** Present when a signer was given. */
  signed?: SignedWarrantReceipt;
}

/**
 * The receipt of an evaluation already made: `w` must be `warrantNow(view, …)` (normalized or not;
 * only its normative fields are hashed). For callers that evaluated the view themselves, such as a gate.
 */
export function warrantReceiptFor(view: EvidenceView, w: WarrantView): WarrantReceipt {
  return receiptFor(view, w);
}

function receiptFor(view: EvidenceView, w: WarrantView): WarrantReceipt {
  return {
    receipt_version: '1',
    canonicalization_version: 'EBCJ-1',
    protocol_version: w.protocol_version,
    proposition_id: w.proposition_id,
    view_id: w.view_id,
    view_digest: ewpViewDigest(view),
    policy_id: w.policy_id,
    policy_version: w.policy_version,
    evaluated_at: w.evaluated_at,
    warrant_digest: ewpWarrantDigest(w),
  };
}

/**
 * Evaluates `warrantNow(view, policy, evaluatedAt)` and issues a receipt binding the canonical view
 * digest, the policy identity, T and the normative WarrantView digest; signs it when given a signer.
 * @param view an EvidenceView as JSON data (decoded with `decodeView`) or already decoded.
 * @throws {InvalidEvidenceView} @throws {InvalidEvaluatedAt} @throws {UnknownPolicy} from @ewp/core.
 * @throws {SigningError} when the signer may not sign.
 */
export function issueWarrantReceipt(view: unknown, evaluatedAt: string, options: { policy?: Policy; signer?: ReceiptSigner } = {}): IssuedWarrantReceipt {
  const decoded = decodeView(view);
  const warrant = normalizeWarrantView(warrantNow(decoded, options.policy ?? REFERENCE_V2, evaluatedAt));
  const receipt = receiptFor(decoded, warrant);
  const issued: IssuedWarrantReceipt = { receipt, receipt_digest: warrantReceiptDigest(receipt), warrant };
  if (options.signer !== undefined) {
    issued.signed = signPayload(SIGNED_WARRANT_RECEIPT_LABEL, receipt, warrantReceiptPayload(receipt), options.signer);
  }
  return issued;
}

/** The outcome of {@link verifyWarrantReceipt}. `ok` is true only when everything checked holds. */
export interface WarrantReceiptVerification {
  ok: boolean;
  /** BOUND (no signature checked), VERIFIED / VERIFIED_RETIRED_KEY, or the first failure. */
  status: 'BOUND' | 'INVALID_RECEIPT' | 'INVALID_VIEW' | 'EVALUATION_FAILED' | 'MISMATCH' | SignatureCheck['status'];
  /** Receipt fields whose recomputed value differs, in receipt field order. */
  mismatches: string[];
  /** The recomputed receipt, when the view could be evaluated. */
  expected: WarrantReceipt | null;
  /** The signature check, when a verifier was given. */
  signature: SignatureCheck | null;
  reason: string;
}

function isWarrantEnvelope(item: unknown): item is SignedWarrantReceipt {
  return typeof item === 'object' && item !== null && 'receipt' in item && 'signature' in item;
}

/**
 * Re-evaluates and checks a warrant receipt (docs/spec/receipts.md §12.2): decodes the view, recomputes `view_digest`,
 * re-runs `warrantNow` at the receipt's own policy and T, recomputes `warrant_digest`; any differing
 * field fails. With a verifier, the signature must verify too (an unsigned receipt then fails,
 * status UNSIGNED). Never throws on bad input: it fails closed with a status.
 */
export function verifyWarrantReceipt(
  item: WarrantReceipt | SignedWarrantReceipt,
  view: unknown,
  options: { verifier?: SignatureVerifier } = {},
): WarrantReceiptVerification {
  const fail = (status: WarrantReceiptVerification['status'], reason: string, extra: Partial<WarrantReceiptVerification> = {}): WarrantReceiptVerification => ({
    ok: false,
    status,
    mismatches: [],
    expected: null,
    signature: null,
    reason,
    ...extra,
  });
  const receipt = (isWarrantEnvelope(item) ? item.receipt : item) as WarrantReceipt | null;
  if (receipt === null || typeof receipt !== 'object' || RECEIPT_FIELDS.some((k) => typeof receipt[k] !== 'string')) {
    return fail('INVALID_RECEIPT', 'receipt is missing fields or has fields of the wrong type');
  }
  if (receipt.receipt_version !== '1' || receipt.canonicalization_version !== 'EBCJ-1' || receipt.protocol_version !== PROTOCOL_VERSION) {
    return fail('INVALID_RECEIPT', 'unsupported receipt, canonicalization or protocol version');
  }
  let decoded: EvidenceView;
  try {
    decoded = decodeView(view);
  } catch (error) {
    return fail('INVALID_VIEW', `view refused: ${(error as Error).message}`);
  }
  let expected: WarrantReceipt;
  try {
    const policy = { policy_id: receipt.policy_id, version: receipt.policy_version };
    expected = receiptFor(decoded, normalizeWarrantView(warrantNow(decoded, policy, receipt.evaluated_at)));
  } catch (error) {
    return fail('EVALUATION_FAILED', `re-evaluation failed: ${(error as Error).message}`);
  }
  const mismatches = RECEIPT_FIELDS.filter((k) => receipt[k] !== expected[k]);
  if (mismatches.length > 0) {
    return fail('MISMATCH', `receipt does not match the re-evaluation: ${mismatches.join(', ')}`, { mismatches, expected });
  }
  if (options.verifier === undefined) {
    return { ok: true, status: 'BOUND', mismatches: [], expected, signature: null, reason: 'view and warrant digests re-derived' };
  }
  const signature = verifyEnvelope(
    SIGNED_WARRANT_RECEIPT_LABEL,
    item,
    isWarrantEnvelope,
    warrantReceiptPayload,
    () => true, // binding was proven above by re-evaluation
    options.verifier,
  );
  return { ok: signature.verified, status: signature.status, mismatches: [], expected, signature, reason: signature.reason };
}

/**
 * Verifies what {@link issueWarrantReceipt} wrote out (`ewp receipt issue`): `{receipt, receipt_digest,
 * signed?}`. The receipt that counts is the signed envelope's when there is one (else `receipt`),
 * checked by {@link verifyWarrantReceipt}; every copy beside it must then say the same, since a reader
 * may take the top-level `receipt` or `receipt_digest` for the verified one: a `receipt` field that
 * differs from the signed receipt (or any extra or missing field), or a `receipt_digest` that is not its
 * digest, fails as MISMATCH naming the field (`receipt.view_id`, `receipt_digest`). Never throws.
 */
export function verifyIssuedWarrantReceipt(
  issued: { receipt?: unknown; receipt_digest?: unknown; signed?: unknown },
  view: unknown,
  options: { verifier?: SignatureVerifier } = {},
): WarrantReceiptVerification {
  const signed = issued.signed !== undefined;
  const result = verifyWarrantReceipt((signed ? issued.signed : issued.receipt) as WarrantReceipt | SignedWarrantReceipt, view, options);
  if (!result.ok) return result;
  // verifyWarrantReceipt accepted it, so the bound receipt has its ten string fields.
  const bound = (signed ? (issued.signed as SignedWarrantReceipt).receipt : issued.receipt) as WarrantReceipt;
  const mismatches: string[] = [];
  if (signed && issued.receipt !== undefined) {
    const copy = issued.receipt as Record<string, unknown> | null;
    if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) mismatches.push('receipt');
    else {
      const keys = new Set<string>([...RECEIPT_FIELDS, ...Object.keys(copy)]);
      for (const k of keys) if (copy[k] !== (bound as unknown as Record<string, unknown>)[k]) mismatches.push(`receipt.${k}`);
    }
  }
  if (issued.receipt_digest !== undefined && issued.receipt_digest !== warrantReceiptDigest(bound)) mismatches.push('receipt_digest');
  if (mismatches.length === 0) return result;
  return {
    ...result,
    ok: false,
    status: 'MISMATCH',
    mismatches,
    reason: `${mismatches.join(', ')}: not what the ${signed ? 'signed receipt' : 'receipt'} says (an altered copy)`,
  };
}

/** The policy identity every receipt of this package binds today. */
export const WARRANT_POLICY = { policy_id: POLICY_ID, policy_version: POLICY_VERSION } as const;
