/**
 * The EWP time grammar (docs/spec/protocol.md §5): Python 3.12.1 `datetime.fromisoformat` after the reference's
 * strip-and-replace-`Z` step, reproduced byte for byte, plus instant comparison and the
 * reference's staleness arithmetic (docs/spec/protocol.md §5.7).
 *
 * The parser follows the procedure of docs/spec/protocol.md §5.3 literally over the UTF-8 bytes of the string,
 * because the quirks it must reproduce (a NUL reads as the end, the separator may be any
 * character, the reader looks past its limit) only fall out of that byte-level procedure.
 */
import { InvalidArgumentError } from '../errors.js';

/**
 * A UTC instant with microsecond resolution. `seconds` is the floor of the epoch seconds
 * (negative before 1970) and `micros` the remaining 0…999999 microseconds, so the whole range of
 * docs/spec/protocol.md §5.2 (years 1…9999) fits in plain numbers without BigInt.
 */
export interface Instant {
  readonly seconds: number;
  readonly micros: number;
}

/**
 * The outcome of parsing a time string: an {@link Instant}, `'unparsable'` (the reference cannot
 * parse it: a record with this time is never available, a T is refused) or `'out_of_range'` (it
 * parses but its UTC instant lies outside years 1…9999: the reference fails the whole
 * evaluation, docs/spec/protocol.md §5.4).
 */
export type ParsedTime = Instant | 'unparsable' | 'out_of_range';

const UNPARSABLE = 'unparsable' as const;
const OUT_OF_RANGE = 'out_of_range' as const;

/** Epoch seconds of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z (docs/spec/protocol.md §5.2 step 6). */
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;
/** Epoch days of 0001-01-01 and 9999-12-31 (the range a week date must convert into). */
const MIN_DAYS = -719_162;
const MAX_DAYS = 2_932_896;
/** Offsets must lie strictly inside ±24 h (CPython's timezone constructor). */
const DAY_MICROS = 86_400_000_000;

const CH_PLUS = 0x2b;
const CH_COMMA = 0x2c;
const CH_MINUS = 0x2d;
const CH_DOT = 0x2e;
const CH_COLON = 0x3a;
const CH_W = 0x57;
const CH_T = 0x54;
const CH_Z = 0x5a;

/** `10^(6−k)` for a fraction of k digits. */
const FRACTION_SCALE = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

/**
 * Bytes a read may reach past the end of the string. The procedure reads up to two bytes past a
 * limit and the separator skip can jump four bytes, so every such read must find 0 (docs/spec/protocol.md §5.3
 * "Reading B at an index ≥ n yields 0").
 */
const PAD = 16;

/** Reused UTF-8 buffer: parsing is synchronous, so one scratch buffer is enough. */
let bytes = new Uint8Array(128);

/**
 * The characters Python's `str.strip()` removes (docs/spec/protocol.md §5.2 step 2, §11.4). Not the same set as
 * JavaScript's `trim()`: U+001C–U+001F and U+0085 are stripped, U+FEFF is not.
 */
function isPythonWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c >= 0x1c;
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Days since 1970-01-01 of a proleptic Gregorian date (year ≥ 0; H. Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** ISO weekday with Monday = 0 (Python's `date.weekday()`); 1970-01-01 was a Thursday. */
function weekdayOfDays(days: number): number {
  return (((days % 7) + 7 + 3) % 7) | 0;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Epoch days of an ISO week date, or NaN when CPython refuses it: week 0, week 53 in a year
 * without one, weekday outside 1–7, year 0, or a result outside 0001-01-01 … 9999-12-31.
 */
function daysFromIsoWeek(year: number, week: number, weekday: number): number {
  if (year === 0) return Number.NaN;
  if (week <= 0 || week >= 53) {
    if (week !== 53) return Number.NaN;
    const jan1 = weekdayOfDays(daysFromCivil(year, 1, 1));
    if (!(jan1 === 3 || (jan1 === 2 && isLeapYear(year)))) return Number.NaN;
  }
  if (weekday <= 0 || weekday >= 8) return Number.NaN;
  const jan4 = daysFromCivil(year, 1, 4);
  const days = jan4 - weekdayOfDays(jan4) + (week - 1) * 7 + (weekday - 1);
  return days < MIN_DAYS || days > MAX_DAYS ? Number.NaN : days;
}

/** Two ASCII digits at `p`, or −1. */
function twoDigits(b: Uint8Array, p: number): number {
  const d1 = b[p]! - 0x30;
  const d2 = b[p + 1]! - 0x30;
  if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return -1;
  return d1 * 10 + d2;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// The clock reader's results (module-level to avoid allocating a tuple per call).
let readHours = 0;
let readMinutes = 0;
let readSeconds = 0;
let readMicros = 0;

const READ_FAILED = -1;
const READ_OPEN = 0;
const READ_ENDED = 1;

/**
 * The reader of docs/spec/protocol.md §5.3 (CPython's `parse_hh_mm_ss_ff`): reads up to three two-digit groups and
 * a fraction from `p` with limit `limit`. Returns READ_FAILED, READ_ENDED (it stopped on a 0 byte:
 * the end or a NUL) or READ_OPEN (it stopped on anything else).
 */
function readClock(b: Uint8Array, start: number, limit: number): number {
  readHours = 0;
  readMinutes = 0;
  readSeconds = 0;
  readMicros = 0;
  let p = start;
  let colonMode = false;
  for (let group = 0; group < 3; group++) {
    const value = twoDigits(b, p);
    if (value < 0) return READ_FAILED;
    if (group === 0) readHours = value;
    else if (group === 1) readMinutes = value;
    else readSeconds = value;
    const c = b[p + 2]!;
    p += 3;
    if (group === 0) colonMode = c === CH_COLON;
    if (p >= limit) return c === 0 ? READ_ENDED : READ_OPEN;
    if (colonMode && c === CH_COLON) continue;
    if (c === CH_DOT || c === CH_COMMA) break;
    if (!colonMode) {
      p -= 1; // c was not a delimiter: it starts the next group
      continue;
    }
    return READ_FAILED;
  }
  // Fraction: at most six digits count; further digits are skipped, not rounded.
  // k ≥ 1 here (every path to this point left p < limit); clamp anyway so a bad k cannot index out.
  const k = Math.min(Math.max(limit - p, 0), 6);
  let fraction = 0;
  for (let i = 0; i < k; i++) {
    const d = b[p + i]! - 0x30;
    if (d < 0 || d > 9) return READ_FAILED;
    fraction = fraction * 10 + d;
  }
  readMicros = fraction * FRACTION_SCALE[k]!;
  p += k;
  while (isDigit(b[p]!)) p++;
  return b[p] === 0 ? READ_ENDED : READ_OPEN;
}

/**
 * docs/spec/protocol.md §5.2 steps 2–4 and §5.3 step A: strips Python whitespace, replaces every `Z` with
 * `+00:00`, applies the surrogate rule and writes the UTF-8 bytes into `bytes`, followed by PAD
 * zero bytes. Returns the byte count, or −1 when the string is unparsable at this stage.
 */
function encodeForParsing(raw: string): number {
  let start = 0;
  let end = raw.length;
  while (start < end && isPythonWhitespace(raw.charCodeAt(start))) start++;
  while (end > start && isPythonWhitespace(raw.charCodeAt(end - 1))) end--;
  if (start === end) return -1;
  // Worst case: every code unit is a Z (6 bytes) or a BMP character (3 bytes).
  const need = (end - start) * 6 + PAD;
  if (bytes.length < need) bytes = new Uint8Array(need * 2);
  const b = bytes;
  let n = 0;
  let codePoints = 0;
  let surrogateReplaced = false;
  for (let i = start; i < end; i++) {
    let c = raw.charCodeAt(i);
    if (c < 0x80) {
      if (c === CH_Z) {
        b[n] = CH_PLUS;
        b[n + 1] = 0x30;
        b[n + 2] = 0x30;
        b[n + 3] = CH_COLON;
        b[n + 4] = 0x30;
        b[n + 5] = 0x30;
        n += 6;
        codePoints += 6;
      } else {
        b[n++] = c;
        codePoints++;
      }
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < end ? raw.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        // A well-formed pair is one astral code point.
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        b[n] = 0xf0 | (c >> 18);
        b[n + 1] = 0x80 | ((c >> 12) & 0x3f);
        b[n + 2] = 0x80 | ((c >> 6) & 0x3f);
        b[n + 3] = 0x80 | (c & 0x3f);
        n += 4;
        codePoints++;
        continue;
      }
      // A lone surrogate: CPython turns the first one found at code point 7, 8 or 10 into the
      // separator 'T'; any other cannot be encoded and makes the string unparsable.
      if (surrogateReplaced || (codePoints !== 7 && codePoints !== 8 && codePoints !== 10)) {
        return -1;
      }
      surrogateReplaced = true;
      b[n++] = CH_T;
      codePoints++;
      continue;
    }
    if (c < 0x800) {
      b[n] = 0xc0 | (c >> 6);
      b[n + 1] = 0x80 | (c & 0x3f);
      n += 2;
    } else {
      b[n] = 0xe0 | (c >> 12);
      b[n + 1] = 0x80 | ((c >> 6) & 0x3f);
      b[n + 2] = 0x80 | (c & 0x3f);
      n += 3;
    }
    codePoints++;
  }
  if (codePoints < 7) return -1;
  b.fill(0, n, n + PAD);
  return n;
}

/** docs/spec/protocol.md §5.3 step B: the byte position where the date ends, or −1 (unparsable). */
function dateEnd(b: Uint8Array, n: number): number {
  if (n === 7) return 7;
  if (b[4] === CH_MINUS) {
    if (b[5] !== CH_W) return 10;
    if (n > 8 && b[8] === CH_MINUS) {
      if (n === 9) return -1;
      return n > 10 && isDigit(b[10]!) ? 8 : 10;
    }
    return 8;
  }
  if (b[4] === CH_W) {
    let i = 7;
    while (i < n && isDigit(b[i]!)) i++;
    if (i < 9) return i;
    return i % 2 === 0 ? 7 : 8;
  }
  return 8;
}

/** docs/spec/protocol.md §5.3 step C: epoch days of the date read from byte 0, or NaN (unparsable). */
function readDate(b: Uint8Array, s: number): number {
  const hi = twoDigits(b, 0);
  const lo = twoDigits(b, 2);
  if (hi < 0 || lo < 0) return Number.NaN;
  const year = hi * 100 + lo;
  let p = 4;
  const dash = b[p] === CH_MINUS;
  if (dash) p++;
  if (b[p] === CH_W) {
    p++;
    const week = twoDigits(b, p);
    if (week < 0) return Number.NaN;
    p += 2;
    let weekday = 1;
    if (p < s) {
      if (dash) {
        if (b[p] !== CH_MINUS) return Number.NaN;
        p++;
      }
      const c = b[p]!;
      if (!isDigit(c)) return Number.NaN;
      weekday = c - 0x30;
    }
    return daysFromIsoWeek(year, week, weekday);
  }
  const month = twoDigits(b, p);
  if (month < 0) return Number.NaN;
  p += 2;
  if (dash) {
    if (b[p] !== CH_MINUS) return Number.NaN;
    p++;
  }
  const day = twoDigits(b, p);
  if (day < 0) return Number.NaN;
  // docs/spec/protocol.md §5.3 step F for the date fields.
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return Number.NaN;
  }
  return daysFromCivil(year, month, day);
}

function makeInstant(seconds: number, micros: number): ParsedTime {
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) return OUT_OF_RANGE;
  return Object.freeze({ seconds, micros });
}

/** Two ASCII digits at index `i` of a string, or −1 (also past the end: NaN fails the test). */
function twoDigitsAt(s: string, i: number): number {
  const d1 = s.charCodeAt(i) - 0x30;
  const d2 = s.charCodeAt(i + 1) - 0x30;
  return d1 >= 0 && d1 <= 9 && d2 >= 0 && d2 <= 9 ? d1 * 10 + d2 : -1;
}

/**
 * The common RFC 3339 shapes, read straight from the string: `YYYY-MM-DD(T|t| )HH:MM:SS`,
 * optional `.`/`,` and 1+ digits, then `Z`, `±HH:MM` or nothing. Returns undefined for anything
 * else, including out-of-range fields, so the full procedure decides every unusual case. On the
 * strings it accepts, the full procedure takes exactly these steps (s = 10, one separator byte,
 * a colon-mode clock, a two-group offset), so the result is the same by construction; the tests
 * also compare both paths on generated strings.
 */
function parseCommonForm(s: string): ParsedTime | undefined {
  const r = commonFormParts(s);
  if (r === PARTS_NONE) return undefined;
  if (r === PARTS_OUT_OF_RANGE) return OUT_OF_RANGE;
  return Object.freeze({ seconds: parsedParts.seconds, micros: parsedParts.micros });
}

/** Results of {@link commonFormParts} and {@link parseInstantParts}. */
const PARTS_OK = 0;
const PARTS_UNPARSABLE = 1;
const PARTS_OUT_OF_RANGE = 2;
const PARTS_NONE = -1;

/**
 * Where {@link parseInstantParts} leaves the instant it parsed: one reused object, so that the
 * evaluator can test the availability of a million record times without allocating an Instant
 * for each. Read it before the next parse.
 */
export const parsedParts: { seconds: number; micros: number } = { seconds: 0, micros: 0 };

function setParts(seconds: number, micros: number): number {
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) return PARTS_OUT_OF_RANGE;
  parsedParts.seconds = seconds;
  parsedParts.micros = micros;
  return PARTS_OK;
}

/**
 * {@link parseInstant} without allocating: 0 (the instant is in {@link parsedParts}),
 * 1 (`'unparsable'`) or 2 (`'out_of_range'`).
 */
export function parseInstantParts(value: string): 0 | 1 | 2 {
  const r = commonFormParts(value);
  if (r !== PARTS_NONE) return r as 0 | 2;
  const t = parseInstant(value);
  if (t === UNPARSABLE) return PARTS_UNPARSABLE;
  if (t === OUT_OF_RANGE) return PARTS_OUT_OF_RANGE;
  parsedParts.seconds = t.seconds;
  parsedParts.micros = t.micros;
  return PARTS_OK;
}

/** {@link parseCommonForm}'s procedure: PARTS_NONE when not a common form, else setParts. */
function commonFormParts(s: string): number {
  const len = s.length;
  if (len < 19) return PARTS_NONE;
  const yearHi = twoDigitsAt(s, 0);
  const yearLo = twoDigitsAt(s, 2);
  const month = twoDigitsAt(s, 5);
  const day = twoDigitsAt(s, 8);
  const hours = twoDigitsAt(s, 11);
  const minutes = twoDigitsAt(s, 14);
  const seconds = twoDigitsAt(s, 17);
  const sep = s.charCodeAt(10);
  if (
    (yearHi | yearLo | month | day | hours | minutes | seconds) < 0 ||
    s.charCodeAt(4) !== CH_MINUS ||
    s.charCodeAt(7) !== CH_MINUS ||
    s.charCodeAt(13) !== CH_COLON ||
    s.charCodeAt(16) !== CH_COLON ||
    !(sep === CH_T || sep === 0x74 || sep === 0x20)
  ) {
    return PARTS_NONE;
  }
  const year = yearHi * 100 + yearLo;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return PARTS_NONE;
  if (hours > 23 || minutes > 59 || seconds > 59) return PARTS_NONE;
  let i = 19;
  let micros = 0;
  let c = s.charCodeAt(i);
  if (c === CH_DOT || c === CH_COMMA) {
    const first = ++i;
    for (c = s.charCodeAt(i); c >= 0x30 && c <= 0x39; c = s.charCodeAt(++i)) {
      if (i - first < 6) micros = micros * 10 + (c - 0x30);
    }
    const digits = i - first;
    if (digits === 0) return PARTS_NONE;
    if (digits < 6) micros *= FRACTION_SCALE[digits]!;
  }
  const local = daysFromCivil(year, month, day) * 86_400 + hours * 3600 + minutes * 60 + seconds;
  if (i === len) return setParts(local, micros);
  if (c === CH_Z) return i === len - 1 ? setParts(local, micros) : PARTS_NONE;
  if ((c !== CH_PLUS && c !== CH_MINUS) || len !== i + 6 || s.charCodeAt(i + 3) !== CH_COLON) return PARTS_NONE;
  const offsetHours = twoDigitsAt(s, i + 1);
  const offsetMinutes = twoDigitsAt(s, i + 4);
  if ((offsetHours | offsetMinutes) < 0) return PARTS_NONE;
  // Offset minutes are not range-checked on their own (docs/spec/protocol.md §5.3 step E): +05:99 is 5 h 99 min.
  const offset = offsetHours * 3600 + offsetMinutes * 60;
  if (offset >= 86_400) return PARTS_NONE;
  return setParts(c === CH_PLUS ? local - offset : local + offset, micros);
}

/** The full procedure: docs/spec/protocol.md §5.2 and §5.3 in order, over the UTF-8 bytes. */
function parseFully(raw: string): ParsedTime {
  const n = encodeForParsing(raw);
  if (n < 0) return UNPARSABLE;
  const b = bytes;
  const s = dateEnd(b, n);
  if (s < 0) return UNPARSABLE;
  const days = readDate(b, s);
  if (Number.isNaN(days)) return UNPARSABLE;
  const midnight = days * 86_400;
  if (n === s) return makeInstant(midnight, 0);

  // Step D: skip one separator character, whatever it is.
  const lead = b[s]!;
  const t = s + (lead < 0x80 ? 1 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf0) === 0xf0 ? 4 : 2);

  // Step E: the first sign after the separator starts the offset.
  let z = t;
  while (z < n && b[z] !== CH_PLUS && b[z] !== CH_MINUS) z++;
  if (z > n) z = n;
  const clock = readClock(b, t, z);
  if (clock === READ_FAILED) return UNPARSABLE;
  const hours = readHours;
  const minutes = readMinutes;
  const seconds = readSeconds;
  const micros = readMicros;
  if (hours > 23 || minutes > 59 || seconds > 59) return UNPARSABLE;
  const local = midnight + hours * 3600 + minutes * 60 + seconds;
  if (z === n) {
    return clock === READ_ENDED ? makeInstant(local, micros) : UNPARSABLE;
  }
  if (readClock(b, z + 1, n) !== READ_ENDED) return UNPARSABLE;
  const offsetSeconds = readHours * 3600 + readMinutes * 60 + readSeconds;
  // A zero whole-second offset is exactly UTC: CPython drops its fraction.
  if (offsetSeconds === 0) return makeInstant(local, micros);
  const offsetMicros = readMicros;
  if (offsetSeconds * 1_000_000 + offsetMicros >= DAY_MICROS) return UNPARSABLE;
  let utcSeconds: number;
  let utcMicros: number;
  if (b[z] === CH_PLUS) {
    utcSeconds = local - offsetSeconds;
    utcMicros = micros - offsetMicros;
    if (utcMicros < 0) {
      utcMicros += 1_000_000;
      utcSeconds -= 1;
    }
  } else {
    utcSeconds = local + offsetSeconds;
    utcMicros = micros + offsetMicros;
    if (utcMicros >= 1_000_000) {
      utcMicros -= 1_000_000;
      utcSeconds += 1;
    }
  }
  return makeInstant(utcSeconds, utcMicros);
}

/**
 * Bounded memo for the strings that need the full byte-level procedure (anything off the RFC 3339
 * fast path). The fast path is not memoised: measured on Node 20, reading a common timestamp
 * directly costs about as much as hashing it for a lookup, while inserting a new key into a Map
 * costs several parses, so a memo in front of it would slow every first sighting. Odd strings
 * are slower to parse and recur just the same, so for them the memo pays. Results are frozen,
 * so sharing them is safe.
 */
const MEMO_LIMIT = 4096;
/** Longer strings are not memoised, so the memo cannot pin large garbage strings in memory. */
const MEMO_MAX_LENGTH = 64;
const memo = new Map<string, ParsedTime>();

/**
 * Parses an EWP time string exactly as the reference does (docs/spec/protocol.md §5.2–§5.4): Python whitespace
 * stripped, every `Z` read as `+00:00`, Python 3.12 `datetime.fromisoformat` grammar, naive
 * times taken as UTC.
 *
 * @param value - the raw field value; anything but a string is `'unparsable'`.
 * @returns the UTC {@link Instant} (frozen), `'unparsable'`, or `'out_of_range'` when the string
 *   parses but its UTC instant lies outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999Z.
 *
 * @example
 * parseInstant('2026-09-21T21:00:00+05:30'); // { seconds: 1790004600, micros: 0 }
 * parseInstant('2026-09-21T24:00:00Z');      // 'unparsable'
 * parseInstant('0001-01-01T00:00:00+00:01'); // 'out_of_range'
 */
export function parseInstant(value: unknown): ParsedTime {
  if (typeof value !== 'string') return UNPARSABLE;
  const common = parseCommonForm(value);
  if (common !== undefined) return common;
  const cached = memo.get(value);
  if (cached !== undefined) return cached;
  const result = parseFully(value);
  if (value.length <= MEMO_MAX_LENGTH) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(value, result);
  }
  return result;
}

/** Orders two instants: negative if `a` is earlier, 0 if equal, positive if later. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.micros - b.micros;
}

/** The instant as an exact count of microseconds since 1970-01-01T00:00:00Z. */
export function epochMicros(i: Instant): bigint {
  return BigInt(i.seconds) * 1_000_000n + BigInt(i.micros);
}

/** 2^34: below this freshness the reference's float comparison equals the exact one. */
const EXACT_FRESHNESS_LIMIT = 17_179_869_184;

/**
 * docs/spec/protocol.md §5.7: whether a check observed at `checkTime` is stale when evaluating at `evaluatedAt`
 * under a freshness of `freshnessSeconds`. The reference tests `double(age_µs / 10^6) > F`;
 * this reproduces that bit for bit, including ages that exceed a freshness of 2^34 s or more by
 * less than half an ulp, which the reference's rounding counts as not stale.
 *
 * An age ≤ 0 (check at or after T) is never stale.
 *
 * @param freshnessSeconds - an integer 0 … 2^53 − 1 (the decoded `freshness_policy_seconds`).
 * @throws InvalidArgumentError when `freshnessSeconds` is not such an integer.
 */
export function isStale(checkTime: Instant, evaluatedAt: Instant, freshnessSeconds: number): boolean {
  if (!Number.isSafeInteger(freshnessSeconds) || freshnessSeconds < 0) {
    throw new InvalidArgumentError('freshnessSeconds', `must be an integer 0 … 2^53 − 1, got ${freshnessSeconds}`);
  }
  // age = wholeSeconds·10^6 + fractionMicros with 0 ≤ fractionMicros < 10^6; both exact.
  let wholeSeconds = evaluatedAt.seconds - checkTime.seconds;
  let fractionMicros = evaluatedAt.micros - checkTime.micros;
  if (fractionMicros < 0) {
    fractionMicros += 1_000_000;
    wholeSeconds -= 1;
  }
  // d = age − F·10^6 ≤ 0 → not stale.
  if (wholeSeconds < freshnessSeconds) return false;
  if (wholeSeconds === freshnessSeconds && fractionMicros === 0) return false;
  if (freshnessSeconds < EXACT_FRESHNESS_LIMIT) return true;
  // F ≥ 2^34: half an ulp of F is 2^(E−53) s ≤ 0.5 s, so an excess of a whole second or more
  // is always stale; only d = fractionMicros (whole seconds equal F) can round down to F.
  if (wholeSeconds > freshnessSeconds) return true;
  // Math.log2 may round up just below a power of two (2^52 − 1 → 52): correct it exactly.
  let exponent = Math.floor(Math.log2(freshnessSeconds));
  if (2 ** exponent > freshnessSeconds) exponent -= 1;
  else if (2 ** (exponent + 1) <= freshnessSeconds) exponent += 1;
  // Not stale iff d·2^(53−E) < 10^6; exact in doubles (d < 10^6, 2^(53−E) ≤ 2^19).
  return fractionMicros * 2 ** (53 - exponent) >= 1_000_000;
}

/** The last instant a T may be: 9999-12-31T23:59:59.999999Z (docs/spec/protocol.md §5.2 step 6). */
const LAST_INSTANT: Instant = { seconds: MAX_SECONDS, micros: 999_999 };

/**
 * The first T at which a check observed at `checkTime` is stale under `freshnessSeconds`, or `null`
 * when no T of years 1…9999 is. Found by asking {@link isStale} itself (monotone in T): the check is
 * fresh at an age of exactly F seconds and stale at F + 1 s, and the flip between the two is searched
 * by bisection, so the reference's rounding for large F is followed without a second copy of it.
 *
 * @throws InvalidArgumentError when `freshnessSeconds` is not an integer 0 … 2^53 − 1.
 */
export function staleFrom(checkTime: Instant, freshnessSeconds: number): Instant | null {
  // Validates F (and is false: an age of F seconds is never stale).
  isStale(checkTime, checkTime, freshnessSeconds);
  if (freshnessSeconds > MAX_SECONDS - checkTime.seconds) return null;
  const base = checkTime.seconds + freshnessSeconds;
  const at = (d: number): Instant => {
    const m = checkTime.micros + d;
    return m >= 1_000_000 ? { seconds: base + Math.floor(m / 1_000_000), micros: m % 1_000_000 } : { seconds: base, micros: m };
  };
  // Smallest d in (0, 10^6] with isStale at base + d µs; d = 10^6 is always stale.
  let lo = 0;
  let hi = 1_000_000;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (isStale(checkTime, at(mid), freshnessSeconds)) hi = mid;
    else lo = mid;
  }
  const flip = at(hi);
  return compareInstants(flip, LAST_INSTANT) > 0 ? null : flip;
}

/**
 * An instant as a T string every EWP implementation parses: `YYYY-MM-DDTHH:MM:SS.ffffffZ`
 * (years 1…9999; {@link parseInstant} gives the same instant back).
 */
export function formatInstant(i: Instant): string {
  // Whole seconds through Date (exact for years 1…9999), the microseconds written out.
  const iso = new Date(i.seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}.${String(i.micros).padStart(6, '0')}Z`;
}
