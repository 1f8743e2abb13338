import { describe, expect, it } from 'vitest';
import { JsonFloat } from '../json/parse-json.js';
import { pythonFloatRepr, pythonStr } from './python-text.js';

describe('Python str() of JSON scalars (docs/spec/protocol.md §4.3, §11.2)', () => {
  it.each([
    [1.5, '1.5'],
    [1, '1.0'],
    [1000, '1000.0'],
    [1e16, '1e+16'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [123456789012345, '123456789012345.0'],
    [1.5e300, '1.5e+300'],
    [5e-324, '5e-324'],
    [-0, '-0.0'],
    [0.1 + 0.2, '0.30000000000000004'],
    [Number.POSITIVE_INFINITY, 'inf'],
    [Number.NaN, 'nan'],
    [1e15, '1000000000000000.0'],
    [1.2345e-4, '0.00012345'],
  ])('float %d → %s', (v, expected) => expect(pythonFloatRepr(v)).toBe(expected));

  it('converts scalars and the two empty containers', () => {
    expect(pythonStr(true)).toBe('True');
    expect(pythonStr(false)).toBe('False');
    expect(pythonStr(12345678901234567890n)).toBe('12345678901234567890');
    expect(pythonStr(new JsonFloat(5))).toBe('5.0');
    expect(pythonStr(7)).toBe('7');
    expect(pythonStr([])).toBe('[]');
    expect(pythonStr({})).toBe('{}');
  });
  it('refuses non-empty containers (project rule: no Python repr emulation)', () => {
    expect(pythonStr(['a'])).toBeUndefined();
    expect(pythonStr({ k: 'v' })).toBeUndefined();
  });
});
