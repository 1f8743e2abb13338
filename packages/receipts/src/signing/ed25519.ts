import { type KeyObject, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { InvalidArgumentError } from '@ewp/core';

// DER prefixes that wrap a raw 32-byte Ed25519 seed / public key (RFC 8410).
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The 32 raw bytes of a key given as bytes or hex; `argument` names it in the refusal. */
function raw32(key: Uint8Array | string, argument: string): Buffer {
  if (typeof key === 'string' && !/^[0-9a-fA-F]{64}$/.test(key)) {
    throw new InvalidArgumentError(argument, `must be 32 bytes as 64 hex characters, got ${key.length} characters`);
  }
  if (typeof key !== 'string' && !(key instanceof Uint8Array)) throw new InvalidArgumentError(argument, 'must be a Uint8Array or a hex string');
  const bytes = typeof key === 'string' ? Buffer.from(key, 'hex') : Buffer.from(key);
  if (bytes.length !== 32) throw new InvalidArgumentError(argument, `must be 32 bytes (64 hex characters), got ${bytes.length} bytes`);
  return bytes;
}

/** An Ed25519 private key from its 32-byte seed (RFC 8032). */
export function ed25519PrivateKey(seed: Uint8Array | string): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw32(seed, 'seed')]), format: 'der', type: 'pkcs8' });
}

/** An Ed25519 public key from its 32 raw bytes. */
export function ed25519PublicKey(publicKey: Uint8Array | string): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw32(publicKey, 'publicKey')]), format: 'der', type: 'spki' });
}

/** The raw 32-byte public key of a private or public Ed25519 key. */
export function ed25519RawPublicKey(key: KeyObject): Uint8Array {
  const der = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'der', type: 'spki' });
  return new Uint8Array(der.subarray(der.length - 32));
}

/** Ed25519 signature (pure, no pre-hash) of the bytes. */
export function ed25519Sign(privateKey: KeyObject, bytes: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, bytes, privateKey));
}

/** True when the 64-byte signature is valid; any other length is invalid, never an exception. */
export function ed25519Verify(publicKey: KeyObject, bytes: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, bytes, publicKey, signature);
  } catch {
    return false;
  }
}
