import { describe, expect, it } from 'vitest';
import { decodeViewJson } from '../decode/decode-view.js';
import { parseJson } from './parse-json.js';
import { decodeUtf8, firstInvalidUtf8, InvalidUtf8Error, Utf8StreamDecoder } from './utf8.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** Ill-formed inputs and the offset of their first bad sequence. */
const BAD: [string, Buffer, number][] = [
  ['0xff', bytes('{"a":"', [0xff], '"}'), 6],
  ['0xfe', bytes('{"a":"', [0xfe], '"}'), 6],
  ['a lone continuation byte', bytes('ab', [0x80]), 2],
  ['an overlong "/" (C0 AF)', bytes('x', [0xc0, 0xaf]), 1],
  ['an overlong 3-byte form (E0 80 AF)', bytes([0xe0, 0x80, 0xaf]), 0],
  ['a UTF-16 surrogate (ED A0 80)', bytes('ok', [0xed, 0xa0, 0x80]), 2],
  ['beyond U+10FFFF (F4 90 80 80)', bytes([0xf4, 0x90, 0x80, 0x80]), 0],
  ['a lead byte without its continuation', bytes('é', [0xe2, 0x82], 'x'), 2],
  ['ends inside a character', bytes('abc', [0xe2, 0x82]), 3],
];

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

describe('the byte rule', () => {
  it('decodes UTF-8, and keeps a byte order mark as U+FEFF', () => {
    expect(decodeUtf8(bytes('{"t":"é😀"}'))).toBe('{"t":"é😀"}');
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], '{}'))).toBe('\uFEFF{}');
  });

  it.each(BAD)('refuses %s with INVALID_UTF8 and the byte offset, never a replacement character', (_name, input, offset) => {
    let error: unknown;
    try {
      decodeUtf8(input);
    } catch (e) {
      error = e;
    }
    expect(InvalidUtf8Error.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_UTF8', offset });
    expect((error as Error).message).toContain(`byte offset ${offset}`);
    expect(firstInvalidUtf8(input)?.offset).toBe(offset);
  });

  it('finds bad bytes exactly where the platform decoder does not accept them (random bytes)', () => {
    const next = random(7);
    const fatal = new TextDecoder('utf-8', { fatal: true });
    for (let round = 0; round < 5_000; round += 1) {
      const input = Uint8Array.from({ length: 1 + Math.floor(next() * 8) }, () => {
        const r = next();
        return r < 0.4 ? 0x20 + Math.floor(next() * 0x5f) : r < 0.7 ? 0x80 + Math.floor(next() * 0x40) : 0xc0 + Math.floor(next() * 0x40);
      });
      let valid = true;
      try {
        fatal.decode(input);
      } catch {
        valid = false;
      }
      expect(firstInvalidUtf8(input) === undefined, Buffer.from(input).toString('hex')).toBe(valid);
    }
  });

  it('a stream split anywhere gives the same text, or the same refusal at the same offset', () => {
    const inputs = [bytes('{"x":"é😀 ok"}\n{"y":1}'), ...BAD.map(([, input]) => input)];
    for (const input of inputs) {
      let whole: string | number;
      try {
        whole = decodeUtf8(input);
      } catch (e) {
        whole = (e as InvalidUtf8Error).offset;
      }
      for (let a = 0; a <= input.length; a += 1) {
        for (let b = a; b <= input.length; b += 1) {
          const decoder = new Utf8StreamDecoder();
          let got: string | number;
          try {
            got = decoder.write(input.subarray(0, a)) + decoder.write(input.subarray(a, b)) + decoder.write(input.subarray(b)) + decoder.end();
          } catch (e) {
            got = (e as InvalidUtf8Error).offset;
          }
          expect(got, `${input.toString('hex')} split at ${a}, ${b}`).toEqual(whole);
        }
      }
    }
  });

  it('the JSON readers refuse bytes that are not UTF-8 with INVALID_UTF8', () => {
    expect(parseJson(bytes('{"a":"é"}'))).toEqual({ a: 'é' });
    expect(() => parseJson(bytes('{"a":"', [0xff], '"}'))).toThrow(expect.objectContaining({ code: 'INVALID_UTF8', offset: 6 }));
    expect(() => decodeViewJson(bytes('{"proposition_id":"P', [0xfe], '","view_id":"v"}'))).toThrow(
      expect.objectContaining({ code: 'INVALID_UTF8', offset: 20 }),
    );
  });
});
