/** Python string ordering: by Unicode scalar value (a lone surrogate counts as its own value). */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(j) as number;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  const ra = a.length - i;
  const rb = b.length - j;
  return ra === rb ? 0 : ra < rb ? -1 : 1;
}

/** A sorted copy, code point order, duplicates kept. */
export function sortedByCodePoint(xs: readonly string[]): string[] {
  return [...xs].sort(compareCodePoints);
}
