/**
 * SHA-256 (FIPS 180-4) in plain JavaScript for browsers and edge runtimes (the `default` condition of
 * the `#sha256` import): digests here are synchronous, WebCrypto's are not, and `node:crypto` is
 * Node-only. Same three functions, same results as `sha256-node.ts`.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const utf8 = new TextEncoder();
const w = new Uint32Array(64);

/** Lowercase hex SHA-256 of some bytes, or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? utf8.encode(data) : data;
  return digestPadded(padded(bytes, bytes.length));
}

/** Lowercase hex `SHA-256(prefix || UTF-8(text))`. */
export function sha256HexOfPrefixed(prefix: Uint8Array, text: string): string {
  const body = utf8.encode(text);
  const n = prefix.length + body.length;
  const buf = padded(prefix, n);
  buf.set(body, prefix.length);
  return digestPadded(buf);
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

/** The padded buffer of an `n`-byte message that starts with `head`: the 0x80, zeros and the bit length are in place. */
function padded(head: Uint8Array, n: number): Uint8Array {
  const total = Math.ceil((n + 9) / 64) * 64;
  const buf = new Uint8Array(total);
  buf.set(head, 0);
  buf[n] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(total - 8, Math.floor(n / 0x2000_0000));
  view.setUint32(total - 4, (n * 8) >>> 0);
  return buf;
}

function digestPadded(buf: Uint8Array): string {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let h0 = 0x6a09e667,
    h1 = 0xbb67ae85,
    h2 = 0x3c6ef372,
    h3 = 0xa54ff53a,
    h4 = 0x510e527f,
    h5 = 0x9b05688c,
    h6 = 0x1f83d9ab,
    h7 = 0x5be0cd19;
  for (let off = 0; off < buf.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
    h5 = (h5 + f) >>> 0;
    h6 = (h6 + g) >>> 0;
    h7 = (h7 + h) >>> 0;
  }
  let hex = '';
  for (const x of [h0, h1, h2, h3, h4, h5, h6, h7]) hex += x.toString(16).padStart(8, '0');
  return hex;
}
