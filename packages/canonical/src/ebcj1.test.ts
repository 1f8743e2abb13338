import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CanonicalizationError } from './canonicalization-error.js';
import { compareCodePoints, sortedByCodePoint } from '@ewp/core';
import { domainDigest, domainPrefix } from './digest.js';
import { ebcj1Bytes, ebcj1String } from './ebcj1.js';
import { readJsonExact } from './read-json.js';

const dir = fileURLToPath(new URL('../vectors/', import.meta.url));
const load = (name: string) => JSON.parse(readFileSync(dir + name, 'utf8'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

const basic = load('ebcj1-vectors.json');
const extended = load('ebcj1-extended.json');
const invalidPython = load('ebcj1-invalid-python.json');

describe('ebcj1-vectors.json (10 vectors)', () => {
  it('has 10 vectors', () => expect(basic.vectors).toHaveLength(10));
  for (const v of basic.vectors) {
    it(v.id, () => {
      expect(ebcj1String(v.value)).toBe(v.canonical_utf8);
      expect(hex(ebcj1Bytes(v.value))).toBe(v.canonical_hex);
      for (const [domain, digest] of Object.entries(v.digests)) expect(domainDigest(domain, v.value)).toBe(digest);
    });
  }
  it('domain prefix for evidence', () => {
    expect(Buffer.from(domainPrefix('evidence')).toString('hex')).toBe('65766964656e6365626f756e643a65766964656e63653a4542434a2d3100');
    expect(domainDigest('evidence', null)).toBe('11573a0b523dc1f31ca076375000583e434fbc6ddc3c527935b469859f21d118');
  });
});

describe('ebcj1-extended.json vectors (79)', () => {
  it('has 79 vectors', () => expect(extended.vectors).toHaveLength(79));
  for (const v of extended.vectors) {
    it(`${v.group}/${v.id}`, () => {
      const read = readJsonExact(v.input_json);
      if (v.value !== undefined) expect(ebcj1String(v.value)).toBe(v.canonical_utf8);
      const bytes = ebcj1Bytes(read);
      expect(hex(bytes)).toBe(v.canonical_hex);
      expect(bytes.length).toBe(v.canonical_length);
      expect(ebcj1String(read)).toBe(v.canonical_utf8);
      for (const [domain, digest] of Object.entries(v.digests)) expect(domainDigest(domain, read)).toBe(digest);
    });
  }
});

describe('ebcj1-extended.json key_order_cases (6)', () => {
  it('has 6 cases', () => expect(extended.key_order_cases).toHaveLength(6));
  for (const c of extended.key_order_cases) {
    it(c.id, () => {
      expect(sortedByCodePoint(c.keys_in_input_order)).toEqual(c.code_point_order);
      expect([...c.keys_in_input_order].sort(compareCodePoints)).toEqual(c.code_point_order);
      expect([...c.keys_in_input_order].sort()).toEqual(c.utf16_code_unit_order);
      const obj = Object.fromEntries(c.keys_in_input_order.map((k: string, i: number) => [k, i]));
      const text = ebcj1String(obj);
      const order = Object.keys(readJsonExact(text) as object);
      // Integer-like keys enumerate first in JS, so compare through the emitted text, not enumeration.
      const emitted = [...text.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`));
      expect(emitted).toEqual(c.code_point_order);
      expect(order.length).toBe(c.code_point_order.length);
    });
  }
});

describe('ebcj1-extended.json invalid_text (15)', () => {
  it('has 15 cases', () => expect(extended.invalid_text).toHaveLength(15));
  for (const c of extended.invalid_text) {
    it(`${c.id} (${c.expected})`, () => {
      // The reader refuses floats, lone surrogates and duplicates; the 4301-digit integer is refused by EBCJ-1.
      let error: unknown;
      try {
        ebcj1Bytes(readJsonExact(c.input_json));
      } catch (e) {
        error = e;
      }
      expect(CanonicalizationError.isInstance(error)).toBe(true);
      const code = (error as CanonicalizationError).code;
      if (/float|nan|infinity/i.test(c.id)) expect(code).toBe('FLOAT');
      if (/surrogate/i.test(c.id)) expect(code).toBe('LONE_SURROGATE');
      if (/duplicate/i.test(c.id)) expect(code).toBe('DUPLICATE_KEY');
      if (/4301|digits/i.test(c.id)) expect(code).toBe('INTEGER_TOO_LONG');
    });
  }
  it('duplicate keys: last wins when asked to behave like the reference', () => {
    expect(readJsonExact('{"a":1,"a":2}', { duplicateKeys: 'last' })).toEqual({ a: 2 });
  });
});

describe('ebcj1-extended.json invalid_values (21)', () => {
  it('has 21 cases', () => expect(extended.invalid_values).toHaveLength(21));
  for (const c of extended.invalid_values) {
    it(`${c.id}: ${c.expected}`, () => {
      // Build the vector's JS value from its expression.
      const value = new Function(c.js.startsWith('const') ? `${c.js}; return a;` : `return (${c.js});`)();
      if (c.expected.startsWith('accept')) {
        const want = c.id === 'js-negative-zero-number' ? '0' : '5';
        expect(ebcj1String(value)).toBe(want);
      } else {
        expect(() => ebcj1Bytes(value)).toThrow(CanonicalizationError);
      }
    });
  }
  it('codes and paths', () => {
    const code = (v: unknown) => {
      try {
        ebcj1String(v);
      } catch (e) {
        return [(e as CanonicalizationError).code, (e as CanonicalizationError).path];
      }
      return null;
    };
    expect(code({ a: [1, 1.5] })).toEqual(['FLOAT', '$.a[1]']);
    expect(code(2 ** 53)).toEqual(['UNSAFE_NUMBER', '$']);
    expect(code({ k: undefined })).toEqual(['UNSUPPORTED_TYPE', '$.k']);
    const holey = [1, 2, 3];
    delete holey[1];
    expect(code(holey)).toEqual(['SPARSE_ARRAY', '$[1]']);
    expect(code({ x: '\ud800' })).toEqual(['LONE_SURROGATE', '$.x']);
    expect(code({ [Symbol('k')]: 1 })).toEqual(['NON_STRING_KEY', '$']);
    expect(code({ a: { b: 1, [Symbol('k')]: 1 } })).toEqual(['NON_STRING_KEY', '$.a']);
    expect(code(10n ** 4300n)).toEqual(['INTEGER_TOO_LONG', '$']);
    const cyc: unknown[] = [];
    cyc.push(cyc);
    expect(code(cyc)?.[0]).toBe('CYCLE');
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = [deep];
    expect(code(deep)?.[0]).toBe('TOO_DEEP');
  });
});

describe('ebcj1-invalid-python.json (4)', () => {
  it('has 4 cases', () => expect(invalidPython.cases).toHaveLength(4));
  for (const c of invalidPython.cases) {
    it(c.id, () => {
      // Python expressions → their JS counterparts.
      const expr: string = c.python_expression;
      let value: unknown;
      if (/^b['"]/.test(expr) || expr.includes("b'")) value = new Uint8Array([1]);
      else if (/\{\s*1\s*:/.test(expr)) value = new Map([[1, 'v']]);
      else value = readJsonExact(expr.replace(/'/g, '"'), { floats: 'number' });
      let error: unknown;
      try {
        ebcj1Bytes(value);
      } catch (e) {
        error = e;
      }
      expect(CanonicalizationError.isInstance(error)).toBe(true);
      const expectedCode = { float: 'FLOAT', 'nested-float': 'FLOAT', bytes: 'UNSUPPORTED_TYPE', 'non-string-key': 'NON_STRING_KEY' }[c.id as string];
      expect((error as CanonicalizationError).code).toBe(expectedCode);
      if (c.id !== 'bytes') expect((error as Error).message).toContain(c.reason_contains);
    });
  }
});

describe('worked example of docs/spec/receipts.md §1.2', () => {
  it('canonical text and evidence digest', () => {
    const v = readJsonExact('{"b": [1, "x/y"], "a": {"é": null, "😀": true, "\ue000": -7}, "n": 18446744073709551616}');
    expect(ebcj1String(v)).toBe('{"a":{"é":null,"\ue000":-7,"😀":true},"b":[1,"x/y"],"n":18446744073709551616}');
    expect(domainDigest('evidence', v)).toBe('0de3773710a6f1338e1144cbc3db9f8741a6877c522ebca57c671e1d35506166');
  });
  it('bigint and number give the same bytes; -0 is 0', () => {
    expect(ebcj1String(5n)).toBe(ebcj1String(5));
    expect(ebcj1String(-0)).toBe('0');
    expect(readJsonExact('-0')).toBe(0);
    expect(readJsonExact('9007199254740993')).toBe(9007199254740993n);
  });
  it('__proto__ is an ordinary key', () => {
    const v = readJsonExact('{"__proto__":{"x":1},"a":2}');
    expect(ebcj1String(v)).toBe('{"__proto__":{"x":1},"a":2}');
  });
});

describe('members', () => {
  it('writes an own __proto__ member as data, not the prototype', () => {
    const value = JSON.parse('{"z":1,"__proto__":{"x":[1]},"a":2}');
    expect(ebcj1String(value)).toBe('{"__proto__":{"x":[1]},"a":2,"z":1}');
    expect(ebcj1String({ ['__proto__']: 3 })).toBe('{"__proto__":3}');
  });
  it('orders integer-like keys as strings, not in enumeration order', () => {
    expect(ebcj1String({ b: 1, 10: 'x', 9: 'y', a: 2 })).toBe('{"10":"x","9":"y","a":2,"b":1}');
  });
  it('gives each of many shapes sharing a first key its own order (shape cache)', () => {
    for (let n = 1; n < 80; n++) {
      const value: Record<string, number> = { first: 0 };
      for (let i = n; i > 0; i--) value[`k${i}`] = i;
      const expected = `{${Object.keys(value)
        .sort()
        .map((k) => `"${k}":${value[k]}`)
        .join(',')}}`;
      expect(ebcj1String(value)).toBe(expected);
      expect(ebcj1String({ ...value })).toBe(expected);
    }
  });
  it('sorts astral keys by code point in cached shapes too', () => {
    for (let i = 0; i < 3; i++) expect(ebcj1String({ '': 1, '😀': 2, a: 3 })).toBe('{"a":3,"":1,"😀":2}');
  });
});
