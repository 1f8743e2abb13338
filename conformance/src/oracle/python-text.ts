/**
 * Python's `str()` and `repr()` for the JSON values a view can hold (docs/spec/protocol.md §4.3, §11.2).
 * Strings, booleans, integers and floats are exact. Container repr is an approximation (string
 * escapes use JavaScript's Unicode tables for "printable", not Python 3.12's Unicode 15); the
 * oracle refuses non-empty containers in text fields anyway and uses this only to keep
 * validating the rest of the view.
 */
import type { JValue } from './json-value.js';

/**
 * Python `repr(float)`: shortest round-trip digits, positional when the decimal point position
 * `n` satisfies −4 < n ≤ 16, otherwise `d.ddde±XX`.
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip.
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential());
  if (m === null) throw new Error(`unexpected exponential form for ${x}`);
  const digits = m[1] + (m[2] ?? '');
  const n = Number(m[3]) + 1;
  if (n > -4 && n <= 16) {
    if (n <= 0) return `${sign}0.${'0'.repeat(-n)}${digits}`;
    if (n >= digits.length) return `${sign}${digits}${'0'.repeat(n - digits.length)}.0`;
    return `${sign}${digits.slice(0, n)}.${digits.slice(n)}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = n - 1;
  const expText = Math.abs(e) < 10 ? `0${Math.abs(e)}` : String(Math.abs(e));
  return `${sign}${mantissa}e${e < 0 ? '-' : '+'}${expText}`;
}

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

/** Python `repr(str)` (quote choice and escapes; printability approximated, see file note). */
function pythonStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x7f) out += ch;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += `\\u${cp.toString(16)}`;
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a decoded JSON value (`None`, `True`, `[1, 'a']`, `{'k': 'v'}`). */
export function pythonRepr(v: JValue): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return pythonStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pythonRepr).join(', ')}]`;
  if (v.kind === 'int') return v.value.toString();
  if (v.kind === 'float') return pythonFloatRepr(v.value);
  const parts: string[] = [];
  for (const [k, x] of v.entries) parts.push(`${pythonStrRepr(k)}: ${pythonRepr(x)}`);
  return `{${parts.join(', ')}}`;
}

/** Result of Python `str(v)` for a non-null value; `container` marks a non-empty array/object. */
export interface PythonStr {
  readonly text: string;
  readonly container: boolean;
}

/** Python `str(v)` for a present, non-null JSON value (docs/spec/protocol.md §4.3 table). */
export function pythonStr(v: Exclude<JValue, null>): PythonStr {
  if (typeof v === 'string') return { text: v, container: false };
  if (v === true) return { text: 'True', container: false };
  if (v === false) return { text: 'False', container: false };
  if (Array.isArray(v)) return { text: pythonRepr(v), container: v.length > 0 };
  if (v.kind === 'object') return { text: pythonRepr(v), container: v.entries.size > 0 };
  return { text: pythonRepr(v), container: false };
}

/** Python truthiness of a JSON value (for `Conflict.note`, docs/spec/protocol.md §3.7). */
export function pythonTruthy(v: JValue): boolean {
  if (v === null || v === false || v === '') return false;
  if (v === true || typeof v === 'string') return true;
  if (Array.isArray(v)) return v.length > 0;
  if (v.kind === 'int') return v.value !== 0n;
  if (v.kind === 'float') return v.value !== 0; // NaN is truthy in Python; NaN !== 0 is true
  return v.entries.size > 0;
}
