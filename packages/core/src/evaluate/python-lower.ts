/**
 * Python 3.12 `str.lower()` (Unicode 15.0) on a runtime whose ICU may be newer (docs/spec/protocol.md §11.5):
 * these 55 code points gained lowercase mappings after Unicode 15.0, so Python leaves them as is.
 */
const NEWER_THAN_PYTHON = /[\u1C89\uA7CB\uA7CC\uA7CE\uA7D2\uA7D4\uA7DA\uA7DC\u{10D50}-\u{10D65}\u{16EA0}-\u{16EB8}]/u;
const NEWER_THAN_PYTHON_GLOBAL = new RegExp(NEWER_THAN_PYTHON.source, 'gu');

/** Lowercase exactly as Python 3.12 does (default case mapping, not case folding). */
export function pythonLower(s: string): string {
  if (!NEWER_THAN_PYTHON.test(s)) return s.toLowerCase();
  let out = '';
  let last = 0;
  for (const m of s.matchAll(NEWER_THAN_PYTHON_GLOBAL)) {
    out += s.slice(last, m.index).toLowerCase() + m[0];
    last = m.index + m[0].length;
  }
  return out + s.slice(last).toLowerCase();
}
