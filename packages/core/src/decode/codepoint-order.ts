/**
 * Compare strings by Unicode code point (Python's order), not by UTF-16 code unit
 * (docs/spec/protocol.md §11.3): U+E000–U+FFFF sort before astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only surrogates (astral characters, or lone surrogates) order differently from code points.
    if (x < 0xd800 || y < 0xd800 || (x >= 0xe000 && y >= 0xe000)) return x - y;
    // If a shared high surrogate at i−1 pairs with a low surrogate at i in either string, the
    // code points differ from i−1: compare from there (a lone surrogate is its own code point).
    const j = i > 0 && isHigh(a.charCodeAt(i - 1)) && (isLow(x) || isLow(y)) ? i - 1 : i;
    return (a.codePointAt(j) ?? 0) - (b.codePointAt(j) ?? 0);
  }
  return a.length - b.length;
}

function isHigh(u: number): boolean {
  return u >= 0xd800 && u <= 0xdbff;
}

function isLow(u: number): boolean {
  return u >= 0xdc00 && u <= 0xdfff;
}

// A unit at or above U+D800: only strings holding one can order differently by code unit and by code point.
export const HIGH_UNIT = /[\ud800-\uffff]/;

/** Lists up to this long are sorted by insertion: no call into the engine's sort, whose set-up dominates tiny lists. */
const INSERTION_SORT_MAX = 16;

/**
 * A sorted copy in UTF-16 code unit order (the engine's `<` and native sort): code point order too
 * for strings without a unit at or above U+D800. @internal
 */
export function sortedByCodeUnit(list: readonly string[]): string[] {
  const n = list.length;
  const sorted = list.slice();
  if (n > INSERTION_SORT_MAX) return sorted.sort();
  for (let i = 1; i < n; i++) {
    const x = sorted[i] as string;
    let j = i - 1;
    while (j >= 0 && (sorted[j] as string) > x) {
      sorted[j + 1] = sorted[j] as string;
      j--;
    }
    sorted[j + 1] = x;
  }
  return sorted;
}

/** A sorted copy in code point order (duplicates kept). */
export function sortedByCodePoint(list: readonly string[]): string[] {
  // Most lists of a warrant are empty or hold one id: nothing to order.
  if (list.length < 2) return list.slice();
  // Code unit order is several times faster than a comparator and gives the same order unless some
  // string holds a high unit; only then re-sort by code point.
  const sorted = sortedByCodeUnit(list);
  for (let i = 0; i < sorted.length; i++) {
    if (HIGH_UNIT.test(sorted[i] as string)) return sorted.sort(compareCodePoints);
  }
  return sorted;
}
