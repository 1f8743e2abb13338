import { InvalidEvidenceView } from '../errors.js';
import { JsonFloat } from './json-float.js';
import { type JsonReadPolicy, readJsonWith } from './json-reader.js';
import { decodeUtf8 } from './utf8.js';

export { JsonFloat };

/**
 * Parse JSON text the way Python's `json` module does (docs/spec/protocol.md §3.1, §11.1):
 * integer tokens stay exact (`number` when safe, `bigint` beyond 2^53), float tokens become
 * numbers (or {@link JsonFloat} when integral or non-finite), `NaN` / `Infinity` / `-Infinity`
 * are accepted, the last duplicate key wins, lone surrogate escapes are kept. Bytes are read as UTF-8.
 * @throws InvalidEvidenceView with code `JSON_SYNTAX` (path `$`) on malformed text.
 * @throws InvalidUtf8Error with code `INVALID_UTF8` (and the byte offset) when bytes are not UTF-8.
 */
export function parseJson(input: string | Uint8Array): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  // Native JSON.parse gives the same value whenever the text holds nothing the two readers treat
  // differently (see `needsExactReader`); any text JSON.parse refuses goes to the exact reader too,
  // so every refusal still comes from one place, with its offset.
  if (!needsExactReader(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // fall through: the exact reader names the error
    }
  }
  return parseJsonExact(text);
}

/** The exact, Python-compatible reader alone: what {@link parseJson} falls back to (exported for differential tests and benchmarks; same results, slower). */
export function parseJsonExact(input: string | Uint8Array): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  return readJsonWith(text, PYTHON_READER, refuseAsView);
}

/** Python's `json.loads`, as the reference reads views: floats kept apart from integers, NaN and Infinity, last duplicate wins, lone surrogates kept. */
const PYTHON_READER: JsonReadPolicy = Object.freeze({
  floats: 'python',
  nonFiniteLiterals: true,
  duplicateKeys: 'last',
  loneSurrogates: 'keep',
  // Python's decoder fails near its recursion limit (1000) as well.
  maxDepth: 1_000,
  // Python 3.12 refuses to convert integer text longer than 4300 digits (int_max_str_digits).
  maxIntegerDigits: 4300,
  paths: false,
});

function refuseAsView(_problem: string, _path: string, message: string): never {
  throw new InvalidEvidenceView('JSON_SYNTAX', 'JSON', '$', `invalid JSON: ${message}`);
}

/** Nesting beyond this goes to the exact reader, which applies Python's limit (kept well below it). */
const FAST_MAX_DEPTH = 900;

/**
 * True when `text` may hold something native `JSON.parse` reads differently from Python's reader:
 * a float token with an integral or non-finite value (`5.0`, `1e3`, `1e400`: Python keeps them
 * floats), an integer token that may exceed 2^53 (more than 15 digits: Python keeps it exact), `-0`
 * (Python's int 0), `NaN`/`Infinity`, or deep nesting. Duplicate keys (last wins, first position),
 * lone surrogate escapes, `__proto__` keys and every other token read the same way in both.
 * @internal
 */
export function needsExactReader(t: string): boolean {
  // Too few brackets to nest past the limit: depth needs no tracking, and runs of strings without
  // escapes, punctuation and literals are skipped by one native regex call instead of two `indexOf`
  // calls per string (about a third less time on records and JSONL lines).
  return bracketsOver(t, FAST_MAX_DEPTH) ? scanTrackingDepth(t) : scanShallow(t);
}

/** Whether `t` holds more than `limit` opening brackets (in strings too): only then can it nest that deep. */
function bracketsOver(t: string, limit: number): boolean {
  if (t.length <= limit) return false;
  let count = 0;
  for (let p = t.indexOf('['); p !== -1; p = t.indexOf('[', p + 1)) if (++count > limit) return true;
  for (let p = t.indexOf('{'); p !== -1; p = t.indexOf('{', p + 1)) if (++count > limit) return true;
  return false;
}

// What reads the same in both readers: strings without a backslash, and runs of any character that
// cannot start a number or `NaN`/`Infinity` (outside strings, valid JSON has only punctuation,
// whitespace and `true`/`false`/`null` there; anything else makes `JSON.parse` fail and the exact
// reader decide).
const PLAIN_STRING = String.raw`"[^"\\]*"`;
const NO_TOKEN_START = String.raw`[^"\-0-9NI]`;
/** Runs of what reads the same in both, as one unrolled loop: the fastest form, but its backtracking state grows with the run, so only for texts up to {@link UNCAPPED_MAX_CHARS}. */
const SAME_IN_BOTH_UNCAPPED = new RegExp(`${NO_TOKEN_START}*(?:${PLAIN_STRING}${NO_TOKEN_START}*)*`, 'y');
/** The same, at most 64 steps per call, for longer texts (slower, but its state stays bounded). */
const SAME_IN_BOTH_CAPPED = new RegExp(`(?:${PLAIN_STRING}|${NO_TOKEN_START}+){0,64}`, 'y');
/** At most one step per two characters: a few hundred kilobytes of regex backtracking state at most. */
const UNCAPPED_MAX_CHARS = 1 << 16;

/** {@link needsExactReader} for a text that cannot nest too deep. */
function scanShallow(t: string): boolean {
  const n = t.length;
  const sameInBoth = n <= UNCAPPED_MAX_CHARS ? SAME_IN_BOTH_UNCAPPED : SAME_IN_BOTH_CAPPED;
  let i = 0;
  for (;;) {
    sameInBoth.lastIndex = i;
    sameInBoth.test(t);
    if (sameInBoth.lastIndex !== i) {
      i = sameInBoth.lastIndex;
      continue;
    }
    if (i >= n) return false;
    const c = t.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(t, i);
      if (i < 0) return true;
    } else if (c === 0x2d || isDigit(c)) {
      i = numberEnd(t, i, n);
      if (i < 0) return true;
    } else {
      return true; // NaN, Infinity, or not JSON: the exact reader reads or refuses it
    }
  }
}

/** {@link needsExactReader} for any text: strings skipped with `indexOf`, nesting counted. */
function scanTrackingDepth(t: string): boolean {
  const n = t.length;
  let p = 0;
  let depth = 0;
  for (;;) {
    const q = t.indexOf('"', p);
    const end = q < 0 ? n : q;
    for (let i = p; i < end; i++) {
      const c = t.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        if (++depth > FAST_MAX_DEPTH) return true;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
      } else if (c === 0x2d || isDigit(c)) {
        const j = numberEnd(t, i, end);
        if (j < 0) return true;
        i = j - 1;
      } else if (c === 0x4e || c === 0x49) {
        return true; // NaN, Infinity
      }
    }
    if (q < 0) return false;
    p = stringEnd(t, q);
    if (p < 0) return true;
  }
}

/**
 * The end of the number token at `i` (before `end`), or -1 when the token may read differently in
 * the two readers: more than 15 integer digits, `-0`, or a float token whose value is integral or
 * not finite.
 */
function numberEnd(t: string, i: number, end: number): number {
  const c = t.charCodeAt(i);
  let j = c === 0x2d ? i + 1 : i;
  const intStart = j;
  while (j < end && isDigit(t.charCodeAt(j))) j++;
  const digits = j - intStart;
  if (digits === 0 || digits > 15) return -1;
  const next = t.charCodeAt(j);
  if (next === 0x2e || next === 0x65 || next === 0x45) {
    // A float token: only a finite, non-integral value reads the same in both.
    // Common case without converting: a plain decimal (no exponent) under 10^9 with a non-zero
    // digit among its first six decimals is at least 10^-6 from any integer, far more than half
    // the spacing of doubles there (< 6e-8), so its value is finite and not integral.
    let k = j + 1;
    let plain = next === 0x2e && digits <= 9;
    let nonZero = false;
    while (k < end) {
      const d = t.charCodeAt(k);
      if (isDigit(d)) {
        if (d !== 0x30 && k - j <= 6) nonZero = true;
        k++;
      } else if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) {
        plain = false;
        k++;
      } else break;
    }
    if (!(plain && nonZero)) {
      const v = Number(t.slice(i, k));
      if (!Number.isFinite(v) || Number.isInteger(v)) return -1;
    }
    return k;
  }
  if (c === 0x2d && digits === 1 && t.charCodeAt(intStart) === 0x30) return -1; // -0: Python reads the int 0
  return j;
}

/** The index after the string whose opening quote is at `q`: the next quote not escaped by an odd run of backslashes; -1 if unterminated. */
function stringEnd(t: string, q: number): number {
  let r = q + 1;
  for (;;) {
    const close = t.indexOf('"', r);
    if (close < 0) return -1;
    let b = close - 1;
    while (t.charCodeAt(b) === 0x5c) b--;
    r = close + 1;
    if ((close - 1 - b) % 2 === 0) return r;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
