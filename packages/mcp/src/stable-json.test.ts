import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableJson, stableJsonLiteral } from './stable-json.js';

describe('stableJson', () => {
  it('sorts keys by UTF-16 code unit at every depth and indents by two spaces', () => {
    const value = { b: 1, a: { d: [{ z: true, y: null }], c: 'x' }, B: [], é: 2, '\u{1F600}': 3, ｚ: 4 };
    expect(stableJson(value)).toBe(
      '{\n  "B": [],\n  "a": {\n    "c": "x",\n    "d": [\n      {\n        "y": null,\n        "z": true\n      }\n    ]\n  },\n  "b": 1,\n  "é": 2,\n  "\u{1F600}": 3,\n  "ｚ": 4\n}',
    );
  });

  it('keeps a `__proto__` key as an ordinary key, in its place', () => {
    const value = JSON.parse('{"z":1,"__proto__":{"polluted":true},"a":2}') as Record<string, unknown>;
    const text = stableJson(value);
    expect(text).toBe('{\n  "__proto__": {\n    "polluted": true\n  },\n  "a": 2,\n  "z": 1\n}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes what JSON.stringify writes for values without objects, and drops undefined members', () => {
    for (const value of [null, 0, -1.5, 'text', true, [1, 'a', null]]) expect(stableJson(value)).toBe(JSON.stringify(value, null, 2));
    expect(stableJson({ b: undefined, a: 1 })).toBe('{\n  "a": 1\n}');
  });
});

describe('stableJsonLiteral', () => {
  it('is JSON.stringify(stableJson(value)) for plain data, odd strings and values JSON drops or rewrites', () => {
    const values: unknown[] = [
      {},
      [],
      [[], {}],
      { b: undefined, a: 1, c: [undefined, () => 1, Symbol('s')], d: Number.NaN, e: -0, f: Number.POSITIVE_INFINITY },
      { q: 'quote " backslash \\ newline \n tab \t nul \u0000 del \u007f', lone: '\ud800x', pair: '\u{1F600}' },
      { '\u{1F600}': 'é', é: 2, B: [], a: { d: [{ z: true, y: null }] }, 'k"ey': 1 },
      JSON.parse('{"__proto__":{"x":1},"a":2}'),
      Object.create(null),
      { when: new Date(0) },
      new Map([[1, 2]]),
      'text',
      12.5,
      null,
    ];
    for (const value of values) expect(stableJsonLiteral(value)).toBe(JSON.stringify(stableJson(value)));
  });

  it('sorts keys of objects whose key lists start alike but differ, every time', () => {
    const a = { k: 1, d: 2, c: 3, b: 4, a: 5 };
    const b = { k: 1, d: 2, c: 3, b: 4, z: 5 };
    for (const value of [a, b, a, { ...b, y: 0 }, b]) expect(stableJsonLiteral(value)).toBe(JSON.stringify(stableJson(value)));
  });
});

describe('stableJsonLiteral, property', () => {
  it('equals JSON.stringify(stableJson(value)) for any JSON-like value', () => {
    fc.assert(
      fc.property(fc.anything({ withObjectString: true, withNullPrototype: true, withBoxedValues: false, withMap: false, withSet: false }), (value) => {
        expect(stableJsonLiteral(value)).toBe(JSON.stringify(stableJson(value)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('stableJson, property', () => {
  const integerLike = /^(0|[1-9][0-9]*)$/;
  /** Keys in code-unit order at every depth (false when an integer-like key makes parsed order unreliable). */
  const keysSorted = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(keysSorted);
    if (typeof v !== 'object' || v === null) return true;
    const keys = Object.keys(v);
    return keys.every((k, i) => !integerLike.test(k) && (i === 0 || (keys[i - 1] as string) < k)) && Object.values(v).every(keysSorted);
  };
  const hasIntegerLikeKey = (v: unknown): boolean =>
    Array.isArray(v)
      ? v.some(hasIntegerLikeKey)
      : typeof v === 'object' && v !== null && Object.entries(v).some(([k, x]) => integerLike.test(k) || hasIntegerLikeKey(x));

  it('is the value JSON.stringify writes, every object with its keys in code-unit order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(stableJson(value));
        expect(parsed).toStrictEqual(JSON.parse(JSON.stringify(value)));
        if (!hasIntegerLikeKey(value)) expect(keysSorted(parsed)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts integer-like keys as strings', () => {
    expect(stableJson({ 2: false, 1000000000000000: true, 10: null })).toBe('{\n  "10": null,\n  "1000000000000000": true,\n  "2": false\n}');
  });
});
