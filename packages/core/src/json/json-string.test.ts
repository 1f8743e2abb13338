import { describe, expect, it } from 'vitest';
import { isPlainJsonString, jsonString } from './json-string.js';

const strings = [
  '',
  'plain',
  'quote " in',
  'back \\ slash',
  'nl \n tab \t nul \u0000 us \u001f',
  'del \u007f',
  'ls \u2028 ps \u2029',
  'é 😀',
  'lone \ud800 high',
  'lone \udc00 low',
  '\ud83d',
  'pair \ud83d\ude00',
];

describe('jsonString', () => {
  it('is JSON.stringify for every string', () => {
    for (const s of strings) expect(jsonString(s)).toBe(JSON.stringify(s));
  });
  it('calls a string plain only when JSON.stringify escapes nothing in it (any surrogate, paired or not, is not plain)', () => {
    for (const s of strings) if (isPlainJsonString(s)) expect(JSON.stringify(s)).toBe(`"${s}"`);
    for (let c = 0; c < 0x10000; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      const surrogate = c >= 0xd800 && c <= 0xdfff;
      expect(isPlainJsonString(s), `U+${c.toString(16)}`).toBe(!surrogate && JSON.stringify(s) === `"${s}"`);
    }
  });
});
