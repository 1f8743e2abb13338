import { describe, expect, it } from 'vitest';
import { guardMessage, MAX_MESSAGE_DEPTH, nestsDeeperThan, parseJsonBytes } from './jsonrpc-guard.js';

describe('JSON-RPC framing checks', () => {
  it('passes requests, notifications and responses', () => {
    expect(guardMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }).ok).toBe(true);
    expect(guardMessage({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} }).ok).toBe(true);
    expect(guardMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }).ok).toBe(true);
    expect(guardMessage({ jsonrpc: '2.0', id: 3, result: {} }).ok).toBe(true);
  });

  it('treats params null as absent', () => {
    const r = guardMessage({ jsonrpc: '2.0', id: 1, method: 'ping', params: null });
    expect(r.ok && 'params' in r.message).toBe(false);
  });

  it('answers bad messages with a specific code and never echoes an unusable id', () => {
    const reply = (value: unknown) => {
      const r = guardMessage(value);
      return r.ok ? undefined : r.reply;
    };
    expect(reply(null)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply([])).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply({ jsonrpc: '2.0', id: 7 })).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(reply({ jsonrpc: '2.0', id: 2 ** 60, method: 'ping' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply({ jsonrpc: '2.0', id: false, method: 'ping' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply({ id: 1, method: 'ping' })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(reply({ jsonrpc: '2.0', id: 1, method: '' })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(reply({ jsonrpc: '2.0', id: 1, method: 'x', params: 'p' })).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(reply({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })).toMatchObject({ error: { code: -32602 } });
    // A malformed notification is never answered.
    expect(reply({ jsonrpc: '2.0', method: 'x', params: 5 })).toBeUndefined();
  });

  it('reads strict UTF-8 JSON', () => {
    expect(parseJsonBytes(new TextEncoder().encode('{"a":"é"}'))).toEqual({ ok: true, value: { a: 'é' } });
    expect(parseJsonBytes(new Uint8Array([0x22, 0xc3, 0x22]))).toEqual({ ok: false, reason: 'parse error: not UTF-8' });
    expect(parseJsonBytes(new TextEncoder().encode('{'))).toEqual({ ok: false, reason: 'parse error: not JSON' });
    // A key given twice or a lone surrogate escape: refused with the code and the path, never last-wins.
    expect(parseJsonBytes(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping","id":2}'))).toEqual({
      ok: false,
      reason: 'parse error: DUPLICATE_KEY: $.id: a key given twice in one object',
    });
    expect(parseJsonBytes(new TextEncoder().encode('{"params":{"arguments":{"q":"\\udc00"}}}'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^parse error: LONE_SURROGATE: \$\.params\.arguments\.q: /),
    });
  });

  it('refuses nesting past the limit before parsing, counting no bracket inside a string', () => {
    const nested = (levels: number, inner = '1') => new TextEncoder().encode(`{"a":${'['.repeat(levels - 1)}${inner}${']'.repeat(levels - 1)}}`);
    expect(parseJsonBytes(nested(MAX_MESSAGE_DEPTH)).ok).toBe(true);
    expect(parseJsonBytes(nested(MAX_MESSAGE_DEPTH + 1))).toEqual({ ok: false, reason: `parse error: nested deeper than ${MAX_MESSAGE_DEPTH} levels` });
    expect(parseJsonBytes(nested(100_000))).toMatchObject({ ok: false });
    // Brackets in strings (an escaped quote does not end one) do not nest.
    const inStrings = new TextEncoder().encode(JSON.stringify({ a: ['[{'.repeat(1000), '\\"[['.repeat(500)] }));
    expect(nestsDeeperThan(inStrings, 3)).toBe(false);
    expect(parseJsonBytes(inStrings).ok).toBe(true);
    expect(nestsDeeperThan(new TextEncoder().encode('[[["é", [[]]]]]'), 5)).toBe(false);
    expect(nestsDeeperThan(new TextEncoder().encode('[[["é", [[[]]]]]]'), 5)).toBe(true);
    // Siblings do not add up: a wide array is one level.
    expect(nestsDeeperThan(new TextEncoder().encode(JSON.stringify([Array.from({ length: 1000 }, () => [])])), 3)).toBe(false);
  });

  it('decides UTF-8 as a fatal TextDecoder does, a leading byte order mark included', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const cases = [
      [0xef, 0xbb, 0xbf, 0x31], // BOM, then 1
      [0x22, 0xed, 0xa0, 0x80, 0x22], // an encoded surrogate
      [0x22, 0xc0, 0xaf, 0x22], // overlong
      [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], // beyond U+10FFFF
      [0x22, 0xf0, 0x9f, 0x98, 0x80, 0x22], // an emoji
      [0x20, 0x5b, 0x5d, 0x0d], // [] amid whitespace
    ];
    for (const bytes of cases) {
      let expected: unknown;
      try {
        expected = { ok: true, value: JSON.parse(decoder.decode(new Uint8Array(bytes))) };
      } catch (error) {
        expected = { ok: false, reason: error instanceof SyntaxError ? 'parse error: not JSON' : 'parse error: not UTF-8' };
      }
      // A view into a larger buffer, as the transports pass lines.
      const framed = new Uint8Array([0x7b, ...bytes, 0x0a]).subarray(1, bytes.length + 1);
      expect(parseJsonBytes(framed)).toEqual(expected);
    }
  });
});
