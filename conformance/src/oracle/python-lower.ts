/**
 * Python 3.12 `str.lower()` (Unicode 15.0) on a JavaScript runtime with newer tables
 * (docs/spec/protocol.md §11.5): the 55 code points that Node's ICU lowercases but Python leaves unchanged are
 * protected. They are unassigned in Unicode 15, hence neither cased nor case-ignorable there; a
 * private-use placeholder has the same properties, so the final-sigma context stays Python's.
 */
const PYTHON_UNCHANGED = new Set<number>([
  0x1c89,
  0xa7cb,
  0xa7cc,
  0xa7ce,
  0xa7d2,
  0xa7d4,
  0xa7da,
  0xa7dc,
  ...Array.from({ length: 0x10d65 - 0x10d50 + 1 }, (_, i) => 0x10d50 + i),
  ...Array.from({ length: 0x16eb8 - 0x16ea0 + 1 }, (_, i) => 0x16ea0 + i),
]);

const PLACEHOLDER = '\ue000';

export const PYTHON_LOWER_EXCEPTIONS: ReadonlySet<number> = PYTHON_UNCHANGED;

export function pythonLower(s: string): string {
  const protectedChars: string[] = [];
  let needs = false;
  let replaced = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (PYTHON_UNCHANGED.has(cp)) {
      needs = true;
      protectedChars.push(ch);
      replaced += PLACEHOLDER;
    } else if (ch === PLACEHOLDER) {
      protectedChars.push(ch);
      replaced += PLACEHOLDER;
    } else replaced += ch;
  }
  if (!needs) return s.toLowerCase();
  const pieces = replaced.toLowerCase().split(PLACEHOLDER);
  let out = pieces[0] as string;
  for (let k = 1; k < pieces.length; k++) out += (protectedChars[k - 1] as string) + pieces[k];
  return out;
}
