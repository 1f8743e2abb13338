import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '@ewp/core';
import { ebcj1String } from './ebcj1.js';
import { jcsString } from './jcs.js';
import { readJsonExact } from './read-json.js';

/** Independent oracle: rebuild every object with sorted keys in a Map-preserving writer. */
function oracle(v: unknown, compare: (a: string, b: string) => number): string {
  if (Array.isArray(v)) return `[${v.map((x) => oracle(x, compare)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort(compare);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${oracle((v as Record<string, unknown>)[k], compare)}`).join(',')}}`;
  }
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

const utf16 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// Keys and strings drawn from every plane, including integer-like keys and `__proto__`.
const key = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', '0', '10', '9', '\ue000', '😀', 'a'));
const text = fc.string({ unit: 'binary' });
const ebcjValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
    text,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
})).value;
const jcsValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('canonical writers against an independent oracle (fast and explicit paths alike)', () => {
  it('EBCJ-1 equals the code point oracle and round-trips through the exact reader', () => {
    fc.assert(
      fc.property(ebcjValue, (v) => {
        const text = ebcj1String(v);
        expect(text).toBe(oracle(v, compareCodePoints));
        expect(ebcj1String(readJsonExact(text))).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
  it('both give the oracle text for many records of repeated shapes (memoized member orders)', () => {
    const records = (value: fc.Arbitrary<unknown>) =>
      fc.array(fc.dictionary(key, value, { maxKeys: 8 }), { minLength: 1, maxLength: 30 }).map((rs) => [...rs, ...rs.map((r) => ({ ...r }))]);
    fc.assert(
      fc.property(records(ebcjValue), (rs) => {
        expect(ebcj1String(rs)).toBe(oracle(rs, compareCodePoints));
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(records(jcsValue), (rs) => {
        expect(jcsString(rs)).toBe(oracle(rs, utf16));
      }),
      { numRuns: 200 },
    );
  });
  it('JCS equals the UTF-16 oracle', () => {
    fc.assert(
      fc.property(jcsValue, (v) => {
        expect(jcsString(v)).toBe(oracle(v, utf16));
      }),
      { numRuns: 400 },
    );
  });
});
