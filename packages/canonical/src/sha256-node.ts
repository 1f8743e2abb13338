/**
 * SHA-256 on Node (the `node` condition of the `#sha256` import): `node:crypto`, which is native and
 * several times faster than any JavaScript SHA-256. `sha256-portable.ts` is the same three functions
 * for browsers and edge runtimes; both must give the same digest for the same input.
 */
import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';

// One-shot `crypto.hash` (Node >= 20.12): no Hash object per digest, several times cheaper for short inputs.
const oneShot = (nodeCrypto as unknown as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;

/** Lowercase hex SHA-256 of some bytes, or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  return oneShot !== undefined ? oneShot('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex');
}

/** Lowercase hex `SHA-256(prefix || UTF-8(text))`. */
export function sha256HexOfPrefixed(prefix: Uint8Array, text: string): string {
  return createHash('sha256').update(prefix).update(text, 'utf8').digest('hex');
}

/**
 * Lowercase hex `SHA-256(bytes(hex) || UTF-8(text))`, where `bytes(hex)` is what `Buffer.from(hex, 'hex')`
 * decodes: pairs of hex digits up to the first pair that is not one.
 */
export function sha256HexOfHexAndText(hex: string, text: string): string {
  // One buffer and a one-shot digest: two appends per ledger commit made the Hash objects a visible cost.
  const bytes = Buffer.allocUnsafe(32 + Buffer.byteLength(text, 'utf8'));
  if (hex.length !== 64 || bytes.write(hex, 0, 32, 'hex') !== 32) {
    return createHash('sha256').update(Buffer.from(hex, 'hex')).update(text, 'utf8').digest('hex');
  }
  bytes.write(text, 32, 'utf8');
  return sha256Hex(bytes);
}
