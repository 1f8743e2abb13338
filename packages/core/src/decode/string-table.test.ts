import { describe, expect, it } from 'vitest';
import { StringTable } from './string-table.js';

/** What the table must answer, from a Map. */
function reference(keys: string[]): number[] {
  const m = new Map<string, number>();
  return keys.map((k) => {
    const prior = m.get(k);
    if (prior !== undefined) return prior;
    m.set(k, m.size);
    return -1;
  });
}

function keysWithRepeats(n: number, seed: number): string[] {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(x % 5 === 0 && i > 0 ? out[x % i]! : `k${x % (n * 3)}:${i % 7 === 0 ? 'é\u{1F600}' : ''}`);
  }
  return out;
}

describe('StringTable', () => {
  it.each([0, 1, 7, 8, 9, 100, 5000])('answers like a Map for %i keys, announced or not', (n) => {
    const keys = keysWithRepeats(n, n + 1);
    for (const expected of [0, n, Math.floor(n / 3), n * 2]) {
      const t = new StringTable(expected);
      expect(keys.map((k) => t.addOrFind(k))).toEqual(reference(keys));
    }
  });

  it('falls back to a Map when probing runs long, and stays correct', () => {
    const keys = keysWithRepeats(3000, 7);
    const t = new StringTable(keys.length, 0);
    expect(keys.map((k) => t.addOrFind(k))).toEqual(reference(keys));
  });

  it('tells apart strings of equal hash bits only by content', () => {
    const keys = ['', 'a', 'A', 'aa', '\0', '\0\0', 'ab', 'ba', ...Array.from({ length: 40 }, (_, i) => 'x'.repeat(i))];
    const t = new StringTable(4);
    expect([...keys, ...keys].map((k) => t.addOrFind(k))).toEqual(reference([...keys, ...keys]));
  });
});
