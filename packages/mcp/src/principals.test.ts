import { describe, expect, it } from 'vitest';
import { assertPrincipalTokens, principalOf } from './ingest-token.js';
import { parseObserverGrants, writerOf } from './principals.js';

const A = 'a-token-of-at-least-thirty-two-bytes-000001';
const B = 'a-token-of-at-least-thirty-two-bytes-000002';

describe('principals', () => {
  it('a token names its principal; an unknown or absent token names none', () => {
    const tokens = [
      { principal: 'operator', token: A },
      { principal: 'agent', token: B },
    ];
    expect(principalOf({ authorization: `Bearer ${A}` }, tokens)).toBe('operator');
    expect(principalOf({ 'x-ewp-ingest-token': B }, tokens)).toBe('agent');
    expect(principalOf({ authorization: `Bearer ${A}x` }, tokens)).toBeUndefined();
    expect(principalOf({}, tokens)).toBeUndefined();
    expect(principalOf({ authorization: `Bearer ${A}` }, [])).toBeUndefined();
  });

  it('refuses a bad principal name, a short token, and a principal or token given twice', () => {
    expect(() => assertPrincipalTokens([{ principal: 'a/b', token: A }])).toThrow(expect.objectContaining({ path: 'principals[0].principal' }));
    expect(() => assertPrincipalTokens([{ principal: 'agent', token: 'short' }])).toThrow(expect.objectContaining({ code: 'UNSAFE_BIND' }));
    expect(() =>
      assertPrincipalTokens([
        { principal: 'agent', token: A },
        { principal: 'agent', token: B },
      ]),
    ).toThrow(expect.objectContaining({ path: 'principals[1].principal' }));
    expect(() =>
      assertPrincipalTokens([
        { principal: 'agent', token: A },
        { principal: 'runner', token: A },
      ]),
    ).toThrow(expect.objectContaining({ path: 'principals[1].token' }));
  });

  it('reads observer grants as --observer gives them, repeated grants adding up', () => {
    const grants = parseObserverGrants(['importer', 'runner=tool:http,sensor:ntp', 'runner=tool:http', 'runner']);
    expect(grants).toEqual({ importer: { self: true, sources: [] }, runner: { self: true, sources: ['tool:http', 'sensor:ntp'] } });
    expect(writerOf('runner', grants)).toEqual({ principal: 'runner', observer: { self: true, sources: ['tool:http', 'sensor:ntp'] } });
    expect(writerOf('agent', grants)).toEqual({ principal: 'agent' });
    // A name that is an Object.prototype member is no grant.
    expect(writerOf('constructor', grants)).toEqual({ principal: 'constructor' });
    expect(() => parseObserverGrants(['a/b'])).toThrow(expect.objectContaining({ path: '--observer' }));
    expect(() => parseObserverGrants(['runner=tool http'])).toThrow(expect.objectContaining({ path: '--observer' }));
    expect(() => parseObserverGrants(['runner='])).toThrow(expect.objectContaining({ path: '--observer' }));
  });
});
