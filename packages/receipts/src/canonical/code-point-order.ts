/**
 * Unicode code point order (equivalently: UTF-8 byte order), the only string order EBCJ-1 and the
 * reference use (SPEC §1.2). JavaScript's default comparison is by UTF-16 code unit, which differs
 * exactly when a surrogate (an astral character) meets a unit in U+E000–U+FFFF at the first difference.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (D800–DFFF) encode code points above FFFF, so they rank after E000–FFFF.
      if (x >= 0xd800 && y >= 0xd800) {
        const xs = x <= 0xdfff;
        const ys = y <= 0xdfff;
        if (xs !== ys) return xs ? 1 : -1;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

const HIGH_UNIT = /[\ud800-\uffff]/;

/**
 * Sorts strings in place by code point. Uses the engine's fast default sort and re-sorts with the
 * code point comparator only when some string holds a unit where the two orders can disagree.
 */
export function sortByCodePoint(strings: string[]): string[] {
  strings.sort();
  for (let i = 0; i < strings.length; i++) {
    if (HIGH_UNIT.test(strings[i] as string)) {
      strings.sort(compareCodePoints);
      break;
    }
  }
  return strings;
}
