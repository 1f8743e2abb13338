import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, sortedByCodePoint } from './codepoint-order.js';

describe('code point order (docs/spec/protocol.md §11.3)', () => {
  it('sorts U+E000–U+FFFF before astral characters', () => {
    expect(sortedByCodePoint(['\u{10000}', '\uffff', 'a'])).toEqual(['a', '\uffff', '\u{10000}']);
  });
  it('treats a lone surrogate as its own code point', () => {
    expect(compareCodePoints('\ud800\u{1F600}', '\u{10000}')).toBeLessThan(0);
    expect(compareCodePoints('\u{10000}', '\ud800\u{1F600}')).toBeGreaterThan(0);
    expect(compareCodePoints('\ud800', '\ue000')).toBeLessThan(0);
    expect(compareCodePoints('\ud800x', '\u{10000}')).toBeLessThan(0);
    expect(compareCodePoints('\u{1F600}', '\u{1F601}')).toBeLessThan(0);
  });
  it('agrees with a code point array comparison on random strings', () => {
    const alphabet = ['a', '\uffff', '\ue000', '\ud800', '\udc00', '\u{10000}', '\u{1F600}', '\ud83d'];
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    const cps = (s: string) => {
      const out: number[] = [];
      for (let i = 0; i < s.length; i++) {
        const u = s.charCodeAt(i);
        const v = s.charCodeAt(i + 1);
        if (u >= 0xd800 && u <= 0xdbff && v >= 0xdc00 && v <= 0xdfff) {
          out.push(0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00));
          i++;
        } else out.push(u);
      }
      return out;
    };
    const reference = (a: string, b: string) => {
      const x = cps(a);
      const y = cps(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    };
    for (let k = 0; k < 20_000; k++) {
      const a = word();
      const b = word();
      expect(Math.sign(compareCodePoints(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(reference(a, b)));
    }
  });
  it('sorts a list exactly as the comparator does, with or without high units (native-sort fast path)', () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string(), fc.constantFrom('\ue000', '\u{10000}', '\ud800', 'a', ''));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), (list) => {
        expect(sortedByCodePoint(list)).toEqual([...list].sort(compareCodePoints));
      }),
      { numRuns: 2000 },
    );
    const input = ['b', 'a'];
    expect(sortedByCodePoint(input)).toEqual(['a', 'b']);
    expect(input).toEqual(['b', 'a']); // a copy: the input is untouched
  });
});
