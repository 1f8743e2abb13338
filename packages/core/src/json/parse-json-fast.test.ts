/**
 * The native fast path of `parseJson` against the exact reader alone, on generated texts: same value
 * (number kinds, -0, JsonFloat, bigint, key order, duplicate keys, lone surrogates) or same refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonFloat, needsExactReader, parseJson, parseJsonExact } from './parse-json.js';

/** A dump that tells apart everything the two readers could disagree on. */
function dump(v: unknown): string {
  if (v instanceof JsonFloat) return `F(${Object.is(v.value, -0) ? '-0' : String(v.value)})`;
  if (typeof v === 'bigint') return `B(${v})`;
  if (typeof v === 'number') return Object.is(v, -0) ? 'N(-0)' : `N(${v})`;
  if (typeof v === 'string') return `S(${[...v].map((c) => c.codePointAt(0)).join(',')})`;
  if (Array.isArray(v)) return `[${v.map(dump).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    if (Object.getPrototypeOf(v) !== Object.prototype) return 'PROTO!';
    return `{${Object.keys(v)
      .map((k) => `${dump(k)}:${dump((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return String(v);
}

function outcome(read: (t: string) => unknown, text: string): string {
  try {
    return dump(read(text));
  } catch (error) {
    return `ERR ${(error as { code?: string }).code} ${(error as Error).message}`;
  }
}

const numberToken = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1',
    '-1',
    '5',
    '5.0',
    '1e3',
    '1E2',
    '1e400',
    '-1e400',
    '0.5',
    '-0.0',
    '1.5e2',
    '2.5e-3',
    '1e-5',
    '9007199254740991',
    '9007199254740992',
    '123456789012345678901234567890',
    'NaN',
    'Infinity',
    '-Infinity',
    '01',
    '1.',
    '.5',
    '--1',
    '1e',
    '1.5E+2',
  ),
  fc.double({ noNaN: true }).map(String),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);
const stringToken = fc.oneof(
  fc.string().map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"\\ud800"',
    '"\\udc00x"',
    '"a\\"b"',
    '"\\\\"',
    '"\\\\\\""',
    '"\\u00e9"',
    '"\\x"',
    '"unterminated',
    '"tab\there"',
    '"__proto__"',
    '"1"',
    '"0"',
  ),
);
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberToken,
    stringToken,
    fc.constantFrom('true', 'false', 'null', 'nul', 'tru'),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value') as fc.Arbitrary<string>, { maxLength: 5 }).map((xs) => `[${xs.join(',')}]`),
  object: fc
    .array(fc.tuple(fc.oneof(stringToken, fc.constantFrom('"a"', '"b"', '"__proto__"')), tie('value') as fc.Arbitrary<string>), { maxLength: 5 })
    .map((kv) => `{${kv.map(([k, v]) => `${k}:${v}`).join(', ')}}`),
})).value;

describe('parseJson fast path', () => {
  it('agrees with the exact reader on generated texts (values and refusals)', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(outcome(parseJson, text)).toBe(outcome(parseJsonExact, text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with the exact reader on texts over 64 KiB (the scan with a capped regex)', () => {
    const pad = `"p", 1.5, ${'"q", '.repeat(14_000)}`;
    fc.assert(
      fc.property(jsonText, fc.boolean(), (text, before) => {
        const long = before ? `[${pad}${text}]` : `[${text}, ${pad}"z"]`;
        expect(long.length).toBeGreaterThan(1 << 16);
        expect(outcome(parseJson, long)).toBe(outcome(parseJsonExact, long));
      }),
      { numRuns: 1_000 },
    );
  });

  it('agrees on JSON.stringify output of arbitrary values, and takes the fast path for them', () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        if (!needsExactReader(text)) fast += 1;
        expect(outcome(parseJson, text)).toBe(outcome(parseJsonExact, text));
      }),
      { numRuns: 5_000 },
    );
    expect(fast).toBeGreaterThan(1_000);
  });

  it('agrees on plain decimals near the no-conversion shortcut (integer parts up to 11 digits, zeros and long fractions)', () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom('0', '0', '0', '1', '5', '9'), { minLength: min, maxLength: max }).map((d) => d.join(''));
    const decimal = fc
      .tuple(fc.boolean(), fc.oneof(fc.constant('0'), fc.integer({ min: 1, max: 99_999_999_999 }).map(String)), digits(1, 20))
      .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}.${frac}`);
    fc.assert(
      fc.property(fc.array(decimal, { minLength: 1, maxLength: 4 }), (tokens) => {
        const text = `[${tokens.join(',')}]`;
        expect(outcome(parseJson, text)).toBe(outcome(parseJsonExact, text));
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['999999999.0000001', '999999999999999.01', '0.0000001', '1.000000', '123456789.000001']) {
      expect(outcome(parseJson, text), text).toBe(outcome(parseJsonExact, text));
    }
  });

  it('sends every Python-specific spelling to the exact reader', () => {
    for (const text of ['5.0', '[1e3]', '{"a": 1e400}', '-0', '[-0]', 'NaN', '[Infinity]', '-Infinity', '12345678901234567890', '{"x": [0, 1.0]}']) {
      expect(needsExactReader(text), text).toBe(true);
    }
    for (const text of ['{"a": "1.0 NaN -0 12345678901234567890"}', '[0.5, 1, -2, 3e-2]', '{"\\"": "\\\\"}', '{"a": {"b": [true, false, null]}}']) {
      expect(needsExactReader(text), text).toBe(false);
    }
  });

  it('leaves deep nesting to the exact reader (and its limit)', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(needsExactReader(deep(950))).toBe(true);
    expect(outcome(parseJson, deep(1_200))).toBe(outcome(parseJsonExact, deep(1_200)));
    expect(outcome(parseJson, deep(500))).toBe(outcome(parseJsonExact, deep(500)));
  });

  it('agrees with the exact reader with any JSON whitespace around any value (number tokens at every value position)', () => {
    const ws = fc.array(fc.constantFrom(' ', '\t', '\n', '\r'), { maxLength: 2 }).map((w) => w.join(''));
    const spaced: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, numberToken, stringToken, fc.constantFrom('true', 'null', '"k:1.0,"', '"[5.0"'), tie('array'), tie('object')),
      array: fc.array(fc.tuple(ws, tie('value') as fc.Arbitrary<string>, ws), { maxLength: 4 }).map((xs) => `[${xs.map(([a, v, b]) => a + v + b).join(',')}]`),
      object: fc
        .array(fc.tuple(ws, stringToken, ws, ws, tie('value') as fc.Arbitrary<string>, ws), { maxLength: 4 })
        .map((kv) => `{${kv.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`),
    })).value;
    let flagged = 0;
    fc.assert(
      fc.property(ws, spaced, ws, (a, value, b) => {
        const text = a + value + b;
        if (needsExactReader(text)) flagged += 1;
        expect(outcome(parseJson, text)).toBe(outcome(parseJsonExact, text));
      }),
      { numRuns: 20_000 },
    );
    expect(flagged).toBeGreaterThan(1_000);
  });
});
