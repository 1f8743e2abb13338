import type { KeyObject } from 'node:crypto';
import { InvalidArgumentError } from '@ewp/core';
import { ed25519PrivateKey, ed25519PublicKey, ed25519RawPublicKey, ed25519Sign, ed25519Verify } from './ed25519.js';
import type { KeyState, ProviderVerdict, ReceiptSigner, SignatureVerifier } from './envelope.js';

/** Signs with an Ed25519 key held in process (Node's built-in crypto). */
export class Ed25519Signer implements ReceiptSigner {
  readonly algorithm = 'Ed25519';
  readonly key_id: string;
  readonly key_state: KeyState;
  readonly #key: KeyObject;

  /** @param seed the 32-byte RFC 8032 secret seed (bytes or hex). */
  constructor(keyId: string, seed: Uint8Array | string, keyState: KeyState = 'ACTIVE') {
    this.key_id = keyId;
    this.key_state = keyState;
    this.#key = ed25519PrivateKey(seed);
  }

  sign(bytes: Uint8Array): Uint8Array {
    return ed25519Sign(this.#key, bytes);
  }

  /** The raw 32-byte public key, hex. */
  publicKeyHex(): string {
    return Buffer.from(ed25519RawPublicKey(this.#key)).toString('hex');
  }
}

/** One verification key and its lifecycle state. */
export interface RegisteredKey {
  public_hex: string;
  state: KeyState;
}

/**
 * The reference Ed25519 verifier over a key registry (docs/spec/receipts.md §5.5): algorithm ≠ Ed25519 →
 * UNSUPPORTED_ALGORITHM; unknown key id → UNKNOWN_KEY; REVOKED → REVOKED_KEY; bad signature (any
 * length but 64 included) → INVALID_SIGNATURE with the key's state; else VERIFIED with the key's state.
 */
export class Ed25519Verifier implements SignatureVerifier {
  readonly #keys = new Map<string, { key: KeyObject; state: KeyState }>();

  constructor(registry: Readonly<Record<string, RegisteredKey>> | ReadonlyMap<string, RegisteredKey> = {}) {
    const entries = registry instanceof Map ? [...registry.entries()] : Object.entries(registry);
    for (const [id, k] of entries) this.register(id, k.public_hex, k.state);
  }

  /** Adds or replaces a key (e.g. to retire or revoke it). */
  register(keyId: string, publicKey: Uint8Array | string, state: KeyState): void {
    this.#keys.set(keyId, { key: ed25519PublicKey(publicKey), state });
  }

  /** Changes the state of a registered key. @throws {InvalidArgumentError} `keyId` when no key of that id is registered */
  setState(keyId: string, state: KeyState): void {
    const entry = this.#keys.get(keyId);
    if (entry === undefined) throw new InvalidArgumentError('keyId', `no registered key has key_id ${JSON.stringify(keyId)}; register it first`);
    entry.state = state;
  }

  verify(request: { algorithm: string; key_id: string; signed_bytes: Uint8Array; signature: Uint8Array }): ProviderVerdict {
    if (request.algorithm !== 'Ed25519') {
      return { status: 'UNSUPPORTED_ALGORITHM', key_state: null, reason: `unsupported algorithm: ${request.algorithm}` };
    }
    const entry = this.#keys.get(request.key_id);
    if (entry === undefined) {
      return { status: 'UNKNOWN_KEY', key_state: 'UNKNOWN', reason: `unknown key_id: ${request.key_id}` };
    }
    if (entry.state === 'REVOKED') {
      return { status: 'REVOKED_KEY', key_state: 'REVOKED', reason: `key_id is revoked: ${request.key_id}` };
    }
    if (!ed25519Verify(entry.key, request.signed_bytes, request.signature)) {
      return { status: 'INVALID_SIGNATURE', key_state: entry.state, reason: 'Ed25519 signature is invalid' };
    }
    return { status: 'VERIFIED', key_state: entry.state, reason: 'signature verified' };
  }
}
