import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../errors.js';
import { decodeBase64UrlLenient } from './base64url.js';
import type { KeyState, ProviderVerdict, ReceiptSigner, SignatureVerifier } from './envelope.js';
import { Ed25519Signer, Ed25519Verifier } from './key-registry.js';
import { signReceipt, signedReceiptBytes, verifySignedReceipt } from './signed-receipt.js';

const v = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/signed-receipts.json', import.meta.url)), 'utf8'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const signerFor = (keyId: string, state: KeyState = 'ACTIVE') => new Ed25519Signer(keyId, v.keys[keyId].seed_hex, state);

describe('signed-receipts.json keys', () => {
  it('RFC 8032 seeds give the listed public keys', () => {
    for (const [id, k] of Object.entries(v.keys as Record<string, { public_hex: string }>)) {
      expect(signerFor(id).publicKeyHex()).toBe(k.public_hex);
    }
  });
});

describe('signed-receipts.json sign_cases (4)', () => {
  it('has 4 cases', () => expect(v.sign_cases).toHaveLength(4));
  for (const c of v.sign_cases) {
    it(c.id, () => {
      const envelope = signReceipt(c.receipt, signerFor(c.key_id));
      const bytes = signedReceiptBytes(envelope);
      expect(hex(bytes)).toBe(c.signed_bytes_hex);
      expect(Buffer.from(bytes).toString('utf8')).toBe(c.signed_bytes_utf8);
      expect(envelope.signature).toBe(c.signature_base64url);
      expect(hex(decodeBase64UrlLenient(envelope.signature) as Uint8Array)).toBe(c.signature_hex);
      expect(envelope).toEqual(c.envelope);
    });
  }
  it('sign_metadata_is_stripped', () => {
    const m = v.sign_metadata_is_stripped;
    const inner = signerFor('key-1');
    const signer: ReceiptSigner = {
      algorithm: m.signer_algorithm,
      key_id: m.signer_key_id,
      key_state: 'ACTIVE',
      sign: (b) => inner.sign(b),
    };
    expect(signReceipt(m.expected_envelope.receipt, signer)).toEqual(m.expected_envelope);
  });
});

describe('signed-receipts.json sign_refusals (9)', () => {
  it('has 9 cases', () => expect(v.sign_refusals).toHaveLength(9));
  for (const c of v.sign_refusals) {
    it(c.id, () => {
      const real = signerFor('key-1');
      const signer: ReceiptSigner = {
        algorithm: c.signer.algorithm,
        key_id: c.signer.key_id,
        key_state: c.signer.key_state,
        sign: (b) => {
          if (c.signer.returns === "b''") return new Uint8Array(0);
          if (c.signer.returns === "'sig'") return 'sig' as unknown as Uint8Array;
          return real.sign(b);
        },
      };
      expect(() => signReceipt(c.receipt, signer)).toThrow(SigningError);
      expect(() => signReceipt(c.receipt, signer)).toThrow(c.expected_error);
    });
  }
});

describe('signed-receipts.json verify_cases (33)', () => {
  it('has 33 cases', () => expect(v.verify_cases).toHaveLength(33));
  const checkpoints = v.checkpoints;
  for (const c of v.verify_cases) {
    it(`${c.id} → ${c.expected.status}`, () => {
      let verifier: SignatureVerifier;
      if (c.verifier_behaviour === 'ed25519') verifier = new Ed25519Verifier(c.key_registry);
      else if (c.verifier_behaviour === 'throws') {
        verifier = {
          verify: () => {
            throw new Error('provider down');
          },
        };
      } else {
        const verdict: ProviderVerdict =
          c.verifier_behaviour === 'verified-with-unknown-state' ? { status: 'VERIFIED', key_state: 'UNKNOWN' } : { status: 'VERIFIED' };
        verifier = { verify: () => verdict };
      }
      const cp = typeof c.checkpoint === 'string' ? checkpoints[c.checkpoint] : c.checkpoint;
      const result = typeof c.verification_result === 'string' ? v.verification_results[c.verification_result] : c.verification_result;
      const item = c.input_kind === 'envelope' ? c.envelope : c.unsigned_receipt;
      const got = verifySignedReceipt(item, cp, verifier, result);
      const { reason: _r, ...rest } = got;
      const { reason: _e, ...want } = c.expected;
      expect(rest).toEqual(want);
    });
  }
  it('an unknown provider status is a PROVIDER_ERROR, never verified', () => {
    const c = v.verify_cases[0];
    const cp = typeof c.checkpoint === 'string' ? v.checkpoints[c.checkpoint] : c.checkpoint;
    const got = verifySignedReceipt(c.envelope, cp, { verify: () => ({ status: 'MAYBE', key_state: 'ACTIVE' }) });
    expect(got.status).toBe('PROVIDER_ERROR');
    expect(got.verified).toBe(false);
  });
});
