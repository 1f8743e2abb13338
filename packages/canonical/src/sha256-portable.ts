/**
 * SHA-256 (FIPS 180-4) in plain JavaScript for browsers and edge runtimes (the `default` condition of
 * the `#sha256` import): digests here are synchronous, WebCrypto's are not, and `node:crypto` is
 * Node-only. Same three functions, same results as `sha256-node.ts`; the digest is the kernel's
 * (`sha256HexOfBytes` of @ewp/core).
 */
import { sha256HexOfBytes } from '@ewp/core';

const utf8 = new TextEncoder();

/** Lowercase hex SHA-256 of some bytes, or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  return sha256HexOfBytes(typeof data === 'string' ? utf8.encode(data) : data);
}

/** Lowercase hex `SHA-256(prefix || UTF-8(text))`. */
export function sha256HexOfPrefixed(prefix: Uint8Array, text: string): string {
  const body = utf8.encode(text);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix, 0);
  bytes.set(body, prefix.length);
  return sha256HexOfBytes(bytes);
}

/**
 * Lowercase hex `SHA-256(bytes(hex) || UTF-8(text))`, where `bytes(hex)` is what Node's
 * `Buffer.from(hex, 'hex')` decodes: pairs of hex digits up to the first pair that is not one.
 */
export function sha256HexOfHexAndText(hex: string, text: string): string {
  const raw = new Uint8Array(hex.length >> 1);
  let len = 0;
  for (; len < raw.length; len++) {
    const hi = hexValue(hex.charCodeAt(2 * len));
    const lo = hexValue(hex.charCodeAt(2 * len + 1));
    if (hi < 0 || lo < 0) break;
    raw[len] = (hi << 4) | lo;
  }
  return sha256HexOfPrefixed(raw.subarray(0, len), text);
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}
