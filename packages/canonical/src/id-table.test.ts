import { describe, expect, it } from 'vitest';
import { ebcj1String } from './ebcj1.js';
import { jcsString } from './jcs.js';

describe('tables of ids (lists of string lists) in the fast writers', () => {
  it('write as the element-by-element canonical text, and refuse what it refuses', () => {
    const table = [['source', 's0'], ['evidence', 'e "0"'], [], ['x', 'é', '😀']];
    expect(ebcj1String({ records: table })).toBe(`{"records":${JSON.stringify(table)}}`);
    expect(jcsString({ records: table })).toBe(`{"records":${JSON.stringify(table)}}`);
    expect(ebcj1String([['a'], ['b', 'c']])).toBe('[["a"],["b","c"]]');
    // Not a table: mixed rows go element by element.
    expect(ebcj1String([['a'], 'b', [1]])).toBe('[["a"],"b",[1]]');
    expect(() => ebcj1String([['a'], ['\ud800']])).toThrowError(expect.objectContaining({ path: '$[1][0]' }));
  });
});
