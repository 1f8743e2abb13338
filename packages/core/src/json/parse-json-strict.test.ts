import { describe, expect, it } from 'vitest';
import { InvalidJsonError, parseJsonStrict } from './parse-json-strict.js';

function refusal(input: string | Uint8Array): { code: string; path: string | undefined } {
  try {
    parseJsonStrict(input);
  } catch (error) {
    const e = error as InvalidJsonError;
    return { code: e.code, path: e.path };
  }
  throw new Error('accepted');
}

describe('parseJsonStrict', () => {
  it('reads what JSON.parse reads, with the same values', () => {
    for (const text of [
      '{"a":1,"b":[true,null,"x:y"],"c":{"d":"e"}}',
      '[1.5, -0, 1e400, "\\u00e9", {}]',
      '{"__proto__":{"polluted":1},"k":"v"}',
      '{"time":"2026-01-01T00:00:00Z","url":"http://h:80/p"}',
      '{"a:b":{"c::d":":"}}',
      '"plain"',
      '12',
    ]) {
      expect(parseJsonStrict(text)).toEqual(JSON.parse(text));
    }
    expect(Object.hasOwn(parseJsonStrict('{"__proto__":1}') as object, '__proto__')).toBe(true);
  });

  it.each([
    ['{"a":1,"a":2}', '$.a'],
    ['{"tool_name":"Bash","tool_input":{},"tool_name":"Read"}', '$.tool_name'],
    ['{"x":{"y":{"z":1,"z":1}}}', '$.x.y.z'],
    ['[{"ok":1},{"k":"a:b","k":"c"}]', '$[1].k'],
    // The duplicate's first value held colons and keys: they vanish from the parsed value too.
    ['{"a":{"p":"1:2","q":{"r":3}},"a":{}}', '$.a'],
    // An escaped colon makes the counts differ without a duplicate; with one, the exact reader names it.
    ['{"a\\u003a":1,"b":2,"b":3}', '$.b'],
    ['{"\\u0061":1,"a":2}', '$.a'],
  ])('refuses a duplicate key with its path: %s', (text, path) => {
    expect(refusal(text)).toEqual({ code: 'DUPLICATE_KEY', path });
  });

  it('accepts an escaped colon without a duplicate (the count differs, the exact reader agrees)', () => {
    expect(parseJsonStrict('{"a\\u003a":"\\u003A","b":1}')).toEqual({ 'a:': ':', b: 1 });
  });

  it('refuses lone surrogates (escaped, or in text), bad bytes, bad syntax and deep nesting', () => {
    expect(refusal('{"a":"\\ud800"}')).toEqual({ code: 'LONE_SURROGATE', path: '$.a' });
    expect(refusal('{"\\udc00":1}').code).toBe('LONE_SURROGATE');
    expect(refusal('["ok","x\ud800"]')).toEqual({ code: 'LONE_SURROGATE', path: '$[1]' });
    expect(() => parseJsonStrict(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(/INVALID_UTF8|not UTF-8: byte 0xff at byte offset 1/);
    expect(refusal('{"a":').code).toBe('JSON_SYNTAX');
    expect(refusal('{"a":NaN}').code).toBe('JSON_SYNTAX');
    expect(refusal(`${'['.repeat(600)}${']'.repeat(600)}`).code).toBe('JSON_SYNTAX');
    expect(parseJsonStrict(`${'['.repeat(8)}${']'.repeat(8)}`, { maxDepth: 8 })).toEqual([[[[[[[[]]]]]]]]);
    expect(refusal(`${'['.repeat(100_000)}${']'.repeat(100_000)}`).code).toBe('JSON_SYNTAX');
    expect(InvalidJsonError.isInstance(new InvalidJsonError('JSON_SYNTAX', '$', 'x'))).toBe(true);
  });

  it('agrees with the exact reader on random documents with and without a key given twice', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = () => ['a', 'b', 'c', 'a:b', ':', 'x\\u003ay', 'd'][rand(7)] as string;
    const gen = (depth: number): string => {
      const k = rand(depth > 3 ? 3 : 6);
      if (k === 0) return String(rand(100));
      if (k === 1) return `"${word()}"`;
      if (k === 2) return 'null';
      if (k === 3) return `[${Array.from({ length: rand(4) }, () => gen(depth + 1)).join(',')}]`;
      const keys = Array.from({ length: rand(5) }, word);
      return `{${keys.map((key) => `"${key}":${gen(depth + 1)}`).join(',')}}`;
    };
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const text = gen(0);
      // Ground truth from a reviver-free check: re-read every object's own key list from the text.
      let duplicate = false;
      const reader = (s: string) => {
        const seen: Set<string>[] = [];
        let inString = false;
        let current = '';
        let keyNext = false;
        for (let p = 0; p < s.length; p++) {
          const ch = s[p] as string;
          if (inString) {
            if (ch === '\\') {
              current += s.slice(p, p + 6) === '\\u003a' ? ':' : s[p + 1];
              p += s.slice(p, p + 6) === '\\u003a' ? 5 : 1;
            } else if (ch === '"') {
              inString = false;
              if (keyNext && s[p + 1] === ':') {
                const top = seen[seen.length - 1] as Set<string>;
                if (top.has(current)) duplicate = true;
                top.add(current);
              }
            } else current += ch;
          } else if (ch === '"') {
            inString = true;
            current = '';
            keyNext = true;
          } else if (ch === '{') seen.push(new Set());
          else if (ch === '}') seen.pop();
        }
      };
      reader(text);
      if (duplicate) {
        refused++;
        expect(refusal(text).code).toBe('DUPLICATE_KEY');
      } else expect(parseJsonStrict(text)).toEqual(JSON.parse(text));
    }
    expect(refused).toBeGreaterThan(100);
  });
});
