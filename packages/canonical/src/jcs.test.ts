import { describe, expect, it } from 'vitest';
import { CanonicalizationError } from './canonicalization-error.js';
import { jcsBytes, jcsString } from './jcs.js';
import { readJsonExact } from './read-json.js';

describe('RFC 8785 (JCS)', () => {
  it('RFC 8785 §3.2.2 example', () => {
    const input =
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}';
    expect(jcsString(readJsonExact(input, { floats: 'number' }))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });
  it('RFC 8785 §3.2.3 sorts by UTF-16 code units', () => {
    const input =
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}';
    const keys = [...jcsString(readJsonExact(input)).matchAll(/"((?:[^"\\]|\\.)*)":"([^"]*)"/g)].map((m) => m[2]);
    expect(keys).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });
  it('bytes are UTF-8; -0 is 0; safe bigints are numbers', () => {
    expect(Buffer.from(jcsBytes({ é: -0, n: 5n })).toString('utf8')).toBe('{"n":5,"é":0}');
  });
  it('refuses what I-JSON cannot carry, with typed errors', () => {
    const code = (v: unknown) => {
      try {
        jcsString(v);
      } catch (e) {
        return (e as CanonicalizationError).code;
      }
      return null;
    };
    expect(code(Number.NaN)).toBe('FLOAT');
    expect(code(2n ** 64n)).toBe('UNSAFE_NUMBER');
    expect(code({ a: undefined })).toBe('UNSUPPORTED_TYPE');
    expect(code('\udc00')).toBe('LONE_SURROGATE');
    expect(code(new Date(0))).toBe('UNSUPPORTED_TYPE');
    const holey = [1, 2, 3];
    delete holey[1];
    expect(() => jcsString(holey)).toThrow(CanonicalizationError);
  });
});
