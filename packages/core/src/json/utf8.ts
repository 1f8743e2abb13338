/**
 * The one byte rule: input text is UTF-8, and bytes that are not are refused with the offset of the
 * first bad byte, never replaced by U+FFFD. A leading byte order mark is kept as U+FEFF (what the
 * reader then refuses or accepts is its own rule, not the decoder's).
 */
import { EwpError } from '../errors.js';

/** Bytes that are not UTF-8. `offset` is the position of the first byte of the first ill-formed sequence. */
export class InvalidUtf8Error extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidUtf8Error');
  declare readonly code: 'INVALID_UTF8';
  /** Byte offset of the first ill-formed sequence, from the start of the input. */
  readonly offset: number;
  constructor(offset: number, byte: number | undefined) {
    super(
      'INVALID_UTF8',
      byte === undefined
        ? `the input is not UTF-8: it ends inside a character that starts at byte offset ${offset}`
        : `the input is not UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${offset}`,
    );
    this.name = 'InvalidUtf8Error';
    this.offset = offset;
  }
}

/**
 * Length of the well-formed UTF-8 sequence starting at `i` (Unicode Table 3-7: no overlongs, no
 * surrogates, nothing past U+10FFFF), 0 when it is ill-formed, or -1 when `bytes` end inside it.
 */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) n = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    n = 3;
    if (b0 === 0xe0) lo = 0xa0;
    else if (b0 === 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    n = 4;
    if (b0 === 0xf0) lo = 0x90;
    else if (b0 === 0xf4) hi = 0x8f;
  } else return 0;
  for (let k = 1; k < n; k += 1) {
    if (i + k >= bytes.length) return -1;
    const b = bytes[i + k] as number;
    if (b < (k === 1 ? lo : 0x80) || b > (k === 1 ? hi : 0xbf)) return 0;
  }
  return n;
}

/**
 * Where `bytes` stop being UTF-8: the offset of the first ill-formed sequence, or of a sequence cut
 * by the end (`truncated`), or undefined when they are UTF-8 throughout.
 */
export function firstInvalidUtf8(bytes: Uint8Array): { offset: number; truncated: boolean } | undefined {
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n === 0) return { offset: i, truncated: false };
    if (n === -1) return { offset: i, truncated: true };
    i += n;
  }
  return undefined;
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `bytes` as text.
 * @throws {InvalidUtf8Error} `INVALID_UTF8` with the byte offset when they are not UTF-8.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    throw utf8Refusal(bytes, 0);
  }
}

function utf8Refusal(bytes: Uint8Array, base: number): InvalidUtf8Error {
  const bad = firstInvalidUtf8(bytes) ?? { offset: bytes.length, truncated: true };
  return new InvalidUtf8Error(base + bad.offset, bad.truncated ? undefined : bytes[bad.offset]);
}

/**
 * UTF-8 decoding of a stream of chunks: a character cut by a chunk boundary is joined, and the first
 * bad byte is refused with its offset from the start of the stream.
 */
export class Utf8StreamDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Bytes of the chunks before the current one. */
  private consumed = 0;
  /** The last chunk's bytes of a character it cut (what the decoder holds back), for locating an error. */
  private held: Uint8Array = new Uint8Array(0);
  /** After {@link write} refused a chunk: the text of that chunk (and what was held back) before its first bad byte. */
  textBeforeError = '';

  /** The text of `chunk` (and of what the previous chunk held back). */
  write(chunk: Uint8Array): string {
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      const joined = concat(this.held, chunk);
      const refusal = utf8Refusal(joined, this.consumed - this.held.length);
      this.textBeforeError = decodeUtf8(joined.subarray(0, refusal.offset - (this.consumed - this.held.length)));
      throw refusal;
    }
    this.held = heldBack(chunk, this.held);
    this.consumed += chunk.length;
    return text;
  }

  /** The end of the stream. @throws {InvalidUtf8Error} when it ends inside a character. */
  end(): string {
    try {
      return this.decoder.decode();
    } catch {
      throw new InvalidUtf8Error(this.consumed - this.held.length, undefined);
    }
  }
}

/** The bytes at the end of `chunk` (after `before`, what was held back until it) that start a character not yet complete. */
function heldBack(chunk: Uint8Array, before: Uint8Array): Uint8Array {
  // A character is at most 4 bytes: its lead byte is among the last 3 (or held from before).
  const tail = chunk.length >= 3 ? chunk.subarray(chunk.length - 3) : concat(before, chunk).subarray(-3);
  for (let k = tail.length - 1; k >= 0; k -= 1) {
    const b = tail[k] as number;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return tail.length - k < need ? tail.slice(k) : new Uint8Array(0);
    }
    if (b < 0x80) return new Uint8Array(0);
  }
  return new Uint8Array(0);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** No lone surrogate in the string, so it has a UTF-8 form (`String.prototype.isWellFormed`, ES2024: Node 20, current browsers and edge runtimes). */
export function isWellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}
