import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.js';

describe('stableJson', () => {
  it('sorts keys by UTF-16 code unit at every depth and indents by two spaces', () => {
    const value = { b: 1, a: { d: [{ z: true, y: null }], c: 'x' }, B: [], é: 2, '\u{1F600}': 3, ｚ: 4 };
    expect(stableJson(value)).toBe(
      '{\n  "B": [],\n  "a": {\n    "c": "x",\n    "d": [\n      {\n        "y": null,\n        "z": true\n      }\n    ]\n  },\n  "b": 1,\n  "é": 2,\n  "\u{1F600}": 3,\n  "ｚ": 4\n}',
    );
  });

  it('keeps a `__proto__` key as an ordinary key, in its place', () => {
    const value = JSON.parse('{"z":1,"__proto__":{"polluted":true},"a":2}') as Record<string, unknown>;
    const text = stableJson(value);
    expect(text).toBe('{\n  "__proto__": {\n    "polluted": true\n  },\n  "a": 2,\n  "z": 1\n}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes what JSON.stringify writes for values without objects, and drops undefined members', () => {
    for (const value of [null, 0, -1.5, 'text', true, [1, 'a', null]]) expect(stableJson(value)).toBe(JSON.stringify(value, null, 2));
    expect(stableJson({ b: undefined, a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
