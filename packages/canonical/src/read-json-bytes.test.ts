import { describe, expect, it } from 'vitest';
import { readJsonExact } from './read-json.js';

describe('readJsonExact on bytes', () => {
  it('reads UTF-8 bytes and refuses others with INVALID_UTF8 and the byte offset', () => {
    expect(readJsonExact(Buffer.from('{"a":"é"}'))).toEqual({ a: 'é' });
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(() => readJsonExact(bad)).toThrow(expect.objectContaining({ code: 'INVALID_UTF8', offset: 6 }));
  });
});
