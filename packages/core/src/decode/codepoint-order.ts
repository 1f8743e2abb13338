/**
 * Compare strings by Unicode code point (Python's order), not by UTF-16 code unit
 * (SPEC §11.3): U+E000–U+FFFF sort before astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Only surrogates (astral characters, or lone surrogates) order differently from code points.
      if (x < 0xd800 || y < 0xd800 || (x >= 0xe000 && y >= 0xe000)) return x - y;
      return codePointAtUnit(a, i) - codePointAtUnit(b, i);
    }
  }
  return a.length - b.length;
}

// The code point that the UTF-16 unit at i belongs to (a lone surrogate is its own code point).
function codePointAtUnit(s: string, i: number): number {
  const u = s.charCodeAt(i);
  if (u >= 0xdc00 && u <= 0xdfff && i > 0) {
    const hi = s.charCodeAt(i - 1);
    if (hi >= 0xd800 && hi <= 0xdbff) return 0x10000 + ((hi - 0xd800) << 10) + (u - 0xdc00);
  }
  return s.codePointAt(i) ?? u;
}

/** A sorted copy in code point order (duplicates kept). */
export function sortedByCodePoint(list: readonly string[]): string[] {
  return [...list].sort(compareCodePoints);
}
