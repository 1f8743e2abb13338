import { describe, expect, it } from 'vitest';
import { firstOccurrences } from './string-table.js';

/** What the table must answer, from a Map. */
function reference(keys: string[]): number[] {
  const m = new Map<string, number>();
  return keys.map((k, i) => {
    const prior = m.get(k);
    if (prior !== undefined) return prior;
    m.set(k, i);
    return i;
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

describe('firstOccurrences', () => {
  it.each([0, 1, 7, 8, 9, 100, 5000])('answers like a Map for %i keys', (n) => {
    const keys = keysWithRepeats(n, n + 1);
    expect(Array.from(firstOccurrences(keys))).toEqual(reference(keys));
  });

  it('falls back to a Map when probing runs long, and stays correct', () => {
    const keys = keysWithRepeats(3000, 7);
    expect(Array.from(firstOccurrences(keys, 0))).toEqual(reference(keys));
  });

  it('tells apart strings of equal hash bits only by content', () => {
    const keys = ['', 'a', 'A', 'aa', '\0', '\0\0', 'ab', 'ba', ...Array.from({ length: 40 }, (_, i) => 'x'.repeat(i))];
    expect(Array.from(firstOccurrences([...keys, ...keys]))).toEqual(reference([...keys, ...keys]));
  });
});
