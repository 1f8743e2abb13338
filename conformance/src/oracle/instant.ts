/**
 * The reference's timestamp reading (docs/spec/protocol.md §5.2–§5.4): Python whitespace strip, `Z` → `+00:00`,
 * then CPython 3.12's `datetime.fromisoformat` re-implemented over UTF-8 bytes, then conversion
 * to UTC as a BigInt count of microseconds since 1970-01-01T00:00:00Z.
 */

/** A parsed instant, or why there is none. */
export type OracleInstant = { readonly us: bigint } | 'unparsable' | 'out_of_range';

const PY_WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python `str.strip()` with no argument (docs/spec/protocol.md §5.2 step 2). */
export function pythonStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && PY_WHITESPACE.has(s.charCodeAt(a))) a++;
  while (b > a && PY_WHITESPACE.has(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

const US_PER_DAY = 86_400_000_000n;
const MIN_US = -62_135_596_800_000_000n; // 0001-01-01T00:00:00Z
const MAX_US = 253_402_300_799_999_999n; // 9999-12-31T23:59:59.999999Z

/** Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d];
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] as number;
}

/** Monday = 0 … Sunday = 6, for a day count from 1970-01-01 (a Thursday). */
function weekday(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

const enc = new TextEncoder();

interface Parts {
  y: number;
  mo: number;
  d: number;
  hh: number;
  mi: number;
  ss: number;
  us: number;
  offsetUs: bigint; // 0n when naive or zero
}

/** One run of CPython's `parse_hhmmss_micro` over bytes `B` from `p` with limit `L`. */
function readClock(B: Uint8Array, p0: number, L: number): { v: [number, number, number, number]; ended: boolean } | null {
  const at = (i: number) => (i < B.length ? (B[i] as number) : 0);
  const digit = (i: number) => {
    const c = at(i);
    return c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
  };
  const vals = [0, 0, 0, 0] as [number, number, number, number];
  let p = p0;
  let colonMode = true;
  let broke = false;
  for (let g = 0; g < 3; g++) {
    const a = digit(p);
    const b = digit(p + 1);
    if (a < 0 || b < 0) return null;
    vals[g] = a * 10 + b;
    const c = at(p + 2);
    p += 3;
    if (g === 0) colonMode = c === 0x3a;
    if (p >= L) return { v: vals, ended: c === 0 };
    if (colonMode && c === 0x3a) continue;
    if (c === 0x2e || c === 0x2c) {
      broke = true;
      break;
    }
    if (!colonMode) {
      p -= 1;
      continue;
    }
    return null;
  }
  void broke;
  const k = Math.min(L - p, 6);
  let f = 0;
  for (let i = 0; i < k; i++) {
    const dg = digit(p + i);
    if (dg < 0) return null;
    f = f * 10 + dg;
  }
  vals[3] = f * 10 ** (6 - k);
  p += k;
  while (digit(p) >= 0) p++;
  return { v: vals, ended: at(p) === 0 };
}

/** CPython 3.12 `datetime.fromisoformat` on already-sanitized bytes; null when it raises. */
function fromIsoBytes(B: Uint8Array): Parts | null {
  const n = B.length;
  const at = (i: number) => (i < n ? (B[i] as number) : 0);
  const isDigit = (i: number) => at(i) >= 0x30 && at(i) <= 0x39;
  const DASH = 0x2d;
  const W = 0x57;

  // Step B: where the date ends.
  let s: number;
  if (n === 7) s = 7;
  else if (at(4) === DASH) {
    if (at(5) === W) {
      if (n > 8 && at(8) === DASH) {
        if (n === 9) return null;
        s = n > 10 && isDigit(10) ? 8 : 10;
      } else s = 8;
    } else s = 10;
  } else if (at(4) === W) {
    let i = 7;
    while (i < n && isDigit(i)) i++;
    s = i < 9 ? i : i % 2 === 0 ? 7 : 8;
  } else s = 8;

  // Step C: the date.
  let p = 0;
  const two = (): number => {
    if (!isDigit(p) || !isDigit(p + 1)) return -1;
    const v = (at(p) - 0x30) * 10 + (at(p + 1) - 0x30);
    p += 2;
    return v;
  };
  if (!isDigit(0) || !isDigit(1) || !isDigit(2) || !isDigit(3)) return null;
  const year = (at(0) - 0x30) * 1000 + (at(1) - 0x30) * 100 + (at(2) - 0x30) * 10 + (at(3) - 0x30);
  p = 4;
  const dash = at(p) === DASH;
  if (dash) p++;
  let y: number;
  let mo: number;
  let d: number;
  if (at(p) === W) {
    p++;
    const week = two();
    if (week < 0) return null;
    let wd = 1;
    if (p < s) {
      if (dash) {
        if (at(p) !== DASH) return null;
        p++;
      }
      if (!isDigit(p)) return null;
      wd = at(p) - 0x30;
      p++;
    }
    if (year < 1 || year > 9999) return null;
    const jan1 = daysFromCivil(year, 1, 1);
    const firstWd = weekday(jan1);
    if (week <= 0 || week >= 53) {
      if (!(week === 53 && (firstWd === 3 || (firstWd === 2 && isLeap(year))))) return null;
    }
    if (wd <= 0 || wd >= 8) return null;
    let week1Monday = jan1 - firstWd;
    if (firstWd > 3) week1Monday += 7;
    [y, mo, d] = civilFromDays(week1Monday + (week - 1) * 7 + wd - 1);
  } else {
    mo = two();
    if (mo < 0) return null;
    if (dash) {
      if (at(p) !== DASH) return null;
      p++;
    }
    d = two();
    if (d < 0) return null;
    y = year;
  }

  let clock: [number, number, number, number] = [0, 0, 0, 0];
  let offsetUs = 0n;
  if (n > s) {
    // Step D: any one character is the separator.
    const c = at(s);
    const width = c < 0x80 ? 1 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf0) === 0xf0 ? 4 : 2;
    const t = s + width;
    const e = n;
    // Step E: find the sign.
    let z = t;
    for (;;) {
      const b = at(z);
      if (b === 0x2b || b === DASH || b === 0x5a) break;
      z++;
      if (z >= e) break;
    }
    const first = readClock(B, t, z);
    if (first === null) return null;
    if (z >= e) {
      if (!first.ended) return null;
    } else {
      const sign = at(z) === DASH ? -1 : 1;
      const off = readClock(B, z + 1, e);
      if (off === null || !off.ended) return null;
      const [oh, om, os, of] = off.v;
      const wholeSeconds = sign * (oh * 3600 + om * 60 + os);
      if (wholeSeconds !== 0) {
        offsetUs = BigInt(wholeSeconds) * 1_000_000n + BigInt(sign * of);
        if (offsetUs <= -US_PER_DAY || offsetUs >= US_PER_DAY) return null;
      }
    }
    clock = first.v;
  }

  // Step F: field ranges.
  if (y < 1 || y > 9999 || mo < 1 || mo > 12) return null;
  if (d < 1 || d > daysInMonth(y, mo)) return null;
  const [hh, mi, ss, us] = clock;
  if (hh > 23 || mi > 59 || ss > 59) return null;
  return { y, mo, d, hh, mi, ss, us, offsetUs };
}

/** Reads a time the way the reference does (docs/spec/protocol.md §5.2). */
export function readInstant(value: unknown): OracleInstant {
  if (typeof value !== 'string') return 'unparsable';
  let s = pythonStrip(value);
  if (s.length === 0) return 'unparsable';
  s = s.replaceAll('Z', '+00:00');
  // Step A: code points; a surrogate at code-point position 7, 8 or 10 becomes 'T'.
  const cps = Array.from(s);
  if (cps.length < 7) return 'unparsable';
  const isSurrogate = (ch: string | undefined) => {
    if (ch === undefined || ch.length !== 1) return false;
    const c = ch.charCodeAt(0);
    return c >= 0xd800 && c <= 0xdfff;
  };
  for (const pos of [7, 8, 10]) {
    if (pos >= cps.length) continue;
    if (isSurrogate(cps[pos])) {
      cps[pos] = 'T';
      break;
    }
  }
  if (cps.some(isSurrogate)) return 'unparsable';
  const parts = fromIsoBytes(enc.encode(cps.join('')));
  if (parts === null) return 'unparsable';
  const days = BigInt(daysFromCivil(parts.y, parts.mo, parts.d));
  const local = days * US_PER_DAY + BigInt(parts.hh * 3600 + parts.mi * 60 + parts.ss) * 1_000_000n + BigInt(parts.us);
  const utc = local - parts.offsetUs;
  if (utc < MIN_US || utc > MAX_US) return 'out_of_range';
  return { us: utc };
}
