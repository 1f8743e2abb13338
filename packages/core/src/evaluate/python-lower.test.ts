import { describe, expect, it } from 'vitest';
import { pythonLower } from './python-lower.js';

describe('pythonLower (docs/spec/protocol.md §11.5)', () => {
  it('lowercases like Python, including final sigma and U+0130', () => {
    expect(pythonLower('SERVER01')).toBe('server01');
    expect(pythonLower('ΟΔΟΣ')).toBe('οδος'.slice(0, 3) + 'ς');
    expect(pythonLower('\u0130')).toBe('i\u0307');
    expect(pythonLower('STRASSE')).toBe('strasse');
  });
  it('leaves the 55 code points that Unicode 15.0 did not lowercase', () => {
    for (const cp of [0x1c89, 0xa7cb, 0xa7cc, 0xa7ce, 0xa7d2, 0xa7d4, 0xa7da, 0xa7dc, 0x10d50, 0x10d65, 0x16ea0, 0x16eb8]) {
      const s = `A${String.fromCodePoint(cp)}B`;
      expect(pythonLower(s)).toBe(`a${String.fromCodePoint(cp)}b`);
    }
  });
});
