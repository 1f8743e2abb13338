/** Canonical RFC 4648 §5 base64url without padding: the only form this package emits. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

const LENIENT = /^[A-Za-z0-9_+/-]*={0,2}$/;

/**
 * Decodes a signature string as the reference does (docs/spec/receipts.md §5.6): the URL-safe and the standard
 * alphabet, optional `=` padding, non-zero unused trailing bits ignored. Returns null for anything
 * else (non-ASCII, other characters, an impossible length) and for an empty result.
 */
export function decodeBase64UrlLenient(text: string): Uint8Array | null {
  if (typeof text !== 'string' || !LENIENT.test(text)) return null;
  const body = text.replace(/=+$/, '');
  const padding = text.length - body.length;
  if (body.length % 4 === 1) return null;
  if (padding > 0 && (body.length + padding) % 4 !== 0) return null;
  const bytes = Buffer.from(body.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
  return bytes.length === 0 ? null : new Uint8Array(bytes);
}
