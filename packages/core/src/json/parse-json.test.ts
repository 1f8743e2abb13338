import { describe, expect, it } from 'vitest';
import { InvalidEvidenceView } from '../errors.js';
import { JsonFloat, parseJson } from './parse-json.js';

describe('parseJson keeps what Python keeps', () => {
  it('tells integer tokens from float tokens', () => {
    expect(parseJson('5')).toBe(5);
    expect(parseJson('-0')).toBe(0);
    expect(parseJson('5.0')).toEqual(new JsonFloat(5));
    expect(parseJson('1e3')).toEqual(new JsonFloat(1000));
    expect(parseJson('1.5')).toBe(1.5);
    expect(Object.is((parseJson('-0.0') as JsonFloat).value, -0)).toBe(true);
  });
  it('keeps big integers exact', () => {
    expect(parseJson('12345678901234567890')).toBe(12345678901234567890n);
    expect(parseJson('-9007199254740993')).toBe(-9007199254740993n);
    expect(parseJson('9007199254740991')).toBe(9007199254740991);
  });
  it('accepts NaN and the infinities', () => {
    expect((parseJson('NaN') as JsonFloat).value).toBeNaN();
    expect(parseJson('[Infinity,-Infinity,1e400]')).toEqual([
      new JsonFloat(Number.POSITIVE_INFINITY),
      new JsonFloat(Number.NEGATIVE_INFINITY),
      new JsonFloat(Number.POSITIVE_INFINITY),
    ]);
  });
  it('lets the last duplicate key win and keeps __proto__ as data', () => {
    expect(parseJson('{"a":1,"a":2}')).toEqual({ a: 2 });
    const o = parseJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__']);
  });
  it('keeps lone surrogates', () => {
    expect(parseJson('"\\ud800x"')).toBe('\ud800x');
  });
  it.each(['', '01', '1.', '[1,]', '{"a":1,}', '"\u0001"', 'nul', '{"a" 1}', '[1] 2', "'a'", '"\\x"', '"abc', '-', '+1', '.5'])(
    'refuses %j with JSON_SYNTAX',
    (text) => {
      expect(() => parseJson(text)).toThrow(InvalidEvidenceView);
      try {
        parseJson(text);
      } catch (error) {
        expect((error as InvalidEvidenceView).code).toBe('JSON_SYNTAX');
        expect((error as InvalidEvidenceView).path).toBe('$');
      }
    },
  );
  it('refuses absurd nesting with a typed error, not a stack overflow', () => {
    expect(() => parseJson('['.repeat(20_000) + ']'.repeat(20_000))).toThrow(InvalidEvidenceView);
  });
});

describe("Python's 4300-digit integer limit", () => {
  it('accepts 4300 digits and refuses 4301', () => {
    expect(typeof parseJson('1'.repeat(4300))).toBe('bigint');
    expect(() => parseJson(`[-${'1'.repeat(4301)}]`)).toThrow(/4300/);
  });
});
