import { JsonFloat } from '../json/parse-json.js';

/**
 * Python float repr (docs/spec/protocol.md §11.2): shortest round-trip digits, positional for exponents
 * -4 < n <= 16, else scientific with a signed two-digit exponent.
 */
export function pythonFloatRepr(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Number.POSITIVE_INFINITY) return 'inf';
  if (v === Number.NEGATIVE_INFINITY) return '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const sign = v < 0 ? '-' : '';
  const exp = Math.abs(v).toExponential(); // "d.ddde+N": shortest round-trip digits
  const eIndex = exp.indexOf('e');
  const digits = exp.slice(0, eIndex).replace('.', '');
  const n = Number(exp.slice(eIndex + 1)) + 1; // value = 0.d1d2... × 10^n
  if (n > -4 && n <= 16) {
    if (n <= 0) return `${sign}0.${'0'.repeat(-n)}${digits}`;
    if (digits.length <= n) return `${sign}${digits}${'0'.repeat(n - digits.length)}.0`;
    return `${sign}${digits.slice(0, n)}.${digits.slice(n)}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = n - 1;
  return `${sign}${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/**
 * Python `str()` of a decoded JSON scalar, or `undefined` when the value is a non-empty array
 * or object. Project rule: the reference would produce a Python repr there (`"['a']"`); we refuse
 * those values instead of emulating repr, and accept everything `str()` renders unambiguously.
 */
export function pythonStr(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isInteger(v) ? (v === 0 ? '0' : String(v)) : pythonFloatRepr(v);
    case 'object':
      if (v instanceof JsonFloat) return pythonFloatRepr(v.value);
      if (Array.isArray(v)) return v.length === 0 ? '[]' : undefined;
      if (v !== null && Object.keys(v).length === 0) return '{}';
      return undefined;
    default:
      return undefined;
  }
}
