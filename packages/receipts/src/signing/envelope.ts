import { ebcj1String } from '@ewp/canonical';
import { SigningError } from '../errors.js';
import { decodeBase64UrlLenient, encodeBase64Url } from './base64url.js';

/** Key lifecycle states (docs/spec/receipts.md §5.4). Only ACTIVE keys sign; REVOKED and UNKNOWN fail closed. */
export type KeyState = 'ACTIVE' | 'RETIRED' | 'REVOKED' | 'UNKNOWN';
export const KEY_STATES: readonly KeyState[] = ['ACTIVE', 'RETIRED', 'REVOKED', 'UNKNOWN'];

/** Outcomes of signed-receipt verification (docs/spec/receipts.md §5.3), in the order the checks run. */
export type SignatureStatus =
  | 'UNSIGNED'
  | 'INVALID_ENVELOPE'
  | 'INVALID_SIGNATURE'
  | 'PROVIDER_ERROR'
  | 'UNSUPPORTED_ALGORITHM'
  | 'UNKNOWN_KEY'
  | 'REVOKED_KEY'
  | 'INVALID_BINDING'
  | 'VERIFIED_RETIRED_KEY'
  | 'VERIFIED';

/** Creates signatures for one key. */
export interface ReceiptSigner {
  readonly algorithm: string;
  readonly key_id: string;
  readonly key_state: KeyState;
  /** Signs exactly these bytes (no pre-hash). */
  sign(bytes: Uint8Array): Uint8Array;
}

/** What a signature provider says about one signature (docs/spec/receipts.md §5.5). */
export interface ProviderVerdict {
  status: string;
  key_state?: KeyState | null;
  reason?: string;
}

/** Checks signatures; may be backed by a key registry, a KMS, an HSM. */
export interface SignatureVerifier {
  verify(request: { algorithm: string; key_id: string; signed_bytes: Uint8Array; signature: Uint8Array }): ProviderVerdict;
}

/** The result of verifying a signed (or unsigned) receipt. `verified` is true only for VERIFIED*. */
export interface SignatureCheck {
  status: SignatureStatus;
  verified: boolean;
  signature_valid: boolean;
  binding_valid: boolean;
  key_state: KeyState | null;
  reason: string;
}

/** The envelope fields shared by every signed receipt type (docs/spec/receipts.md §5.1). */
export interface SignedEnvelope<R> {
  receipt: R;
  algorithm: string;
  key_id: string;
  signature: string;
  signature_version: string;
  signature_encoding: string;
}

const SIGNATURE_VERSION = '1';
const SIGNATURE_ENCODING = 'base64url-no-pad';

/** `UTF8(label + signature_version) || 0x00 || EBCJ-1(signed payload)`. */
export function signedBytes(label: string, signatureVersion: string, signedPayload: Record<string, unknown>): Uint8Array {
  return new Uint8Array(Buffer.concat([Buffer.from(`${label}${signatureVersion}`, 'utf8'), Buffer.from([0]), Buffer.from(ebcj1String(signedPayload), 'utf8')]));
}

/** The signed payload: the envelope without its signature. */
export function signedPayloadOf(
  receiptPayload: Record<string, unknown>,
  meta: { algorithm: string; key_id: string; signature_version: string; signature_encoding: string },
): Record<string, unknown> {
  return {
    algorithm: meta.algorithm,
    key_id: meta.key_id,
    receipt: receiptPayload,
    signature_encoding: meta.signature_encoding,
    signature_version: meta.signature_version,
  };
}

/** @internal Signs a receipt payload under a label; shared by proof and warrant receipts. */
export function signPayload<R>(label: string, receipt: R, receiptPayload: Record<string, unknown>, signer: ReceiptSigner): SignedEnvelope<R> {
  if (signer.key_state !== 'ACTIVE') {
    throw new SigningError('KEY_NOT_ACTIVE', 'only ACTIVE signing keys may create new signed receipts');
  }
  const algorithm = typeof signer.algorithm === 'string' ? signer.algorithm.trim() : '';
  if (algorithm === '') throw new SigningError('BLANK_ALGORITHM', 'signer algorithm must be non-empty');
  const keyId = typeof signer.key_id === 'string' ? signer.key_id.trim() : '';
  if (keyId === '') throw new SigningError('BLANK_KEY_ID', 'signer key_id must be non-empty');
  if (receiptPayload.receipt_version !== '1') {
    throw new SigningError('RECEIPT_VERSION', 'unsupported receipt_version for signing');
  }
  if (receiptPayload.canonicalization_version !== 'EBCJ-1') {
    throw new SigningError('CANONICALIZATION_VERSION', 'unsupported canonicalization_version for signing');
  }
  const meta = { algorithm, key_id: keyId, signature_version: SIGNATURE_VERSION, signature_encoding: SIGNATURE_ENCODING };
  const bytes = signedBytes(label, SIGNATURE_VERSION, signedPayloadOf(receiptPayload, meta));
  const signature: unknown = signer.sign(bytes);
  if (!(signature instanceof Uint8Array) || signature.length === 0) {
    throw new SigningError('EMPTY_SIGNATURE', 'signer returned an empty or non-bytes signature');
  }
  return { receipt, ...meta, signature: encodeBase64Url(signature) };
}

const KNOWN_PROVIDER_FAILURES = new Set(['INVALID_SIGNATURE', 'UNSUPPORTED_ALGORITHM', 'UNKNOWN_KEY', 'REVOKED_KEY']);

function check(status: SignatureStatus, reason: string, keyState: KeyState | null, signatureValid = false, bindingValid = false): SignatureCheck {
  const verified = status === 'VERIFIED' || status === 'VERIFIED_RETIRED_KEY';
  return { status, verified, signature_valid: signatureValid, binding_valid: bindingValid, key_state: keyState, reason };
}

function isBlank(s: unknown): boolean {
  return typeof s !== 'string' || s.trim() === '';
}

/**
 * @internal Verifies an envelope in the order of docs/spec/receipts.md §5.3; the first failing step wins, and
 * nothing but a valid signature by an ACTIVE or RETIRED key over a binding receipt is verified.
 */
export function verifyEnvelope<R>(
  label: string,
  item: SignedEnvelope<R> | R,
  isEnvelope: (item: unknown) => item is SignedEnvelope<R>,
  receiptPayload: (receipt: R) => Record<string, unknown>,
  binds: (receipt: R) => boolean,
  verifier: SignatureVerifier,
): SignatureCheck {
  if (!isEnvelope(item)) {
    const bound = safe(() => binds(item as R));
    return bound
      ? check('UNSIGNED', 'legacy ProofReceipt has valid deterministic binding but no issuer signature', null, false, true)
      : check('INVALID_BINDING', 'legacy ProofReceipt is unsigned and does not bind the supplied checkpoint/result', null);
  }
  const env = item;
  const inner = env.receipt as unknown as Record<string, unknown> | null;
  if (
    env.signature_version !== SIGNATURE_VERSION ||
    env.signature_encoding !== SIGNATURE_ENCODING ||
    isBlank(env.algorithm) ||
    isBlank(env.key_id) ||
    inner === null ||
    typeof inner !== 'object' ||
    inner.canonicalization_version !== 'EBCJ-1'
  ) {
    return check('INVALID_ENVELOPE', 'signed receipt envelope metadata is unsupported or incomplete', null);
  }
  const signature = decodeBase64UrlLenient(env.signature);
  if (signature === null) return check('INVALID_SIGNATURE', 'signature encoding is malformed or empty', null);
  let bytes: Uint8Array;
  try {
    bytes = signedBytes(label, env.signature_version, signedPayloadOf(receiptPayload(env.receipt), env));
  } catch {
    return check('INVALID_ENVELOPE', 'signed receipt envelope cannot be canonicalized', null);
  }
  let verdict: ProviderVerdict;
  try {
    verdict = verifier.verify({ algorithm: env.algorithm, key_id: env.key_id, signed_bytes: bytes, signature });
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    return check('PROVIDER_ERROR', `signature verifier raised ${name}`, null);
  }
  const keyState = verdict?.key_state ?? null;
  if (verdict?.status !== 'VERIFIED') {
    if (KNOWN_PROVIDER_FAILURES.has(verdict?.status)) {
      return check(verdict.status as SignatureStatus, verdict.reason ?? verdict.status, keyState);
    }
    return check('PROVIDER_ERROR', `signature verifier returned unknown status ${String(verdict?.status)}`, keyState);
  }
  if (keyState === 'REVOKED') return check('REVOKED_KEY', 'verifier returned VERIFIED for a revoked key', keyState);
  if (keyState !== 'ACTIVE' && keyState !== 'RETIRED') {
    return check('UNKNOWN_KEY', 'verifier returned VERIFIED with a non-trusted key state', keyState);
  }
  if (!safe(() => binds(env.receipt))) {
    return check('INVALID_BINDING', 'signature is valid but receipt does not bind the supplied checkpoint/result', keyState, true, false);
  }
  if (keyState === 'RETIRED') {
    return check('VERIFIED_RETIRED_KEY', 'signature and binding verified with a retired verification key', keyState, true, true);
  }
  return check('VERIFIED', 'signature and binding verified', keyState, true, true);
}

function safe(f: () => boolean): boolean {
  try {
    return f() === true;
  } catch {
    return false;
  }
}
