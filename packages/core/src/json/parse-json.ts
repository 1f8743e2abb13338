import { InvalidEvidenceView } from '../errors.js';
import { decodeUtf8 } from './utf8.js';

/**
 * A JSON float token whose value a JavaScript number cannot mark as a float: an integral value
 * (`5.0`, `1e3`) or a non-finite one (`1e400`, `NaN`, `Infinity`). Python's decoder keeps
 * `5` (int) and `5.0` (float) apart, and the reference refuses or converts them differently.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
}

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
  const parser = new Parser(text);
  parser.skipWs();
  const value = parser.value(0);
  parser.skipWs();
  if (parser.pos !== text.length) parser.fail('extra data after the JSON value');
  return value;
}

// Python's decoder fails near its recursion limit (1000) as well.
const MAX_DEPTH = 1_000;
/** Nesting beyond this goes to the exact reader, which applies {@link MAX_DEPTH} (kept well below it). */
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
/** The same, at most 64 steps per call, for longer texts (about a quarter slower). */
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

const PYTHON_INT_MAX_DIGITS = 4300;

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new InvalidEvidenceView('JSON_SYNTAX', 'JSON', '$', `invalid JSON at offset ${this.pos}: ${what}`);
  }

  skipWs(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */:
        return this.object(depth);
      case 0x5b /* [ */:
        return this.array(depth);
      case 0x22 /* " */:
        return this.string();
      case 0x74 /* t */:
        return this.literal('true', true);
      case 0x66 /* f */:
        return this.literal('false', false);
      case 0x6e /* n */:
        return this.literal('null', null);
      case 0x4e /* N */:
        return this.literal('NaN', new JsonFloat(Number.NaN));
      case 0x49 /* I */:
        return this.literal('Infinity', new JsonFloat(Number.POSITIVE_INFINITY));
      default:
        if (c === 0x2d && t.startsWith('-Infinity', this.pos)) return this.literal('-Infinity', new JsonFloat(Number.NEGATIVE_INFINITY));
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail(Number.isNaN(c) ? 'unexpected end of input' : `unexpected character ${JSON.stringify(t[this.pos])}`);
    }
  }

  literal<T>(word: string, result: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`unexpected token (expected ${word})`);
    this.pos += word.length;
    return result;
  }

  number(): number | bigint | JsonFloat {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) p++;
    const intStart = p;
    if (t.charCodeAt(p) === 0x30) p++;
    else {
      while (isDigit(t.charCodeAt(p))) p++;
    }
    if (p === intStart) {
      this.pos = p;
      this.fail('expected a digit');
    }
    let isFloat = false;
    if (t.charCodeAt(p) === 0x2e && isDigit(t.charCodeAt(p + 1))) {
      isFloat = true;
      p += 2;
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      let q = p + 1;
      const s = t.charCodeAt(q);
      if (s === 0x2b || s === 0x2d) q++;
      if (isDigit(t.charCodeAt(q))) {
        isFloat = true;
        while (isDigit(t.charCodeAt(q))) q++;
        p = q;
      }
    }
    this.pos = p;
    const token = t.slice(start, p);
    if (isFloat) {
      const v = Number(token);
      return Number.isInteger(v) || !Number.isFinite(v) ? new JsonFloat(v) : v;
    }
    const v = Number(token);
    if (Number.isSafeInteger(v)) return v === 0 ? 0 : v;
    // Python 3.12 refuses to convert integer text longer than 4300 digits (int_max_str_digits).
    if (p - intStart > PYTHON_INT_MAX_DIGITS) {
      this.pos = start;
      this.fail(`integer token of ${p - intStart} digits exceeds Python's limit of ${PYTHON_INT_MAX_DIGITS}`);
    }
    return BigInt(token);
  }

  string(): string {
    const t = this.text;
    let p = this.pos + 1;
    // Fast path: no escape and no control character before the closing quote.
    const close = t.indexOf('"', p);
    if (close >= 0) {
      let plain = true;
      for (let i = p; i < close; i++) {
        const c = t.charCodeAt(i);
        if (c === 0x5c || c < 0x20) {
          plain = false;
          break;
        }
      }
      if (plain) {
        this.pos = close + 1;
        return t.slice(p, close);
      }
    }
    let out = '';
    let chunk = p;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        out += t.slice(chunk, p);
        this.pos = p + 1;
        return out;
      }
      if (c === 0x5c) {
        out += t.slice(chunk, p);
        const esc = t.charCodeAt(p + 1);
        p += 2;
        switch (esc) {
          case 0x22:
            out += '"';
            break;
          case 0x5c:
            out += '\\';
            break;
          case 0x2f:
            out += '/';
            break;
          case 0x62:
            out += '\b';
            break;
          case 0x66:
            out += '\f';
            break;
          case 0x6e:
            out += '\n';
            break;
          case 0x72:
            out += '\r';
            break;
          case 0x74:
            out += '\t';
            break;
          case 0x75: {
            const hex = t.slice(p, p + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              this.pos = p;
              this.fail('invalid \\u escape');
            }
            out += String.fromCharCode(Number.parseInt(hex, 16));
            p += 4;
            break;
          }
          default:
            this.pos = p - 1;
            this.fail('invalid escape');
        }
        chunk = p;
        continue;
      }
      if (Number.isNaN(c)) {
        this.pos = p;
        this.fail('unterminated string');
      }
      // Python's strict decoder refuses raw control characters inside strings.
      if (c < 0x20) {
        this.pos = p;
        this.fail('control character in string');
      }
      p++;
    }
  }

  array(depth: number): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.value(depth + 1));
      this.skipWs();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x5d) return out;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  object(depth: number): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a string key');
      const key = this.string();
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':'");
      this.pos++;
      this.skipWs();
      const v = this.value(depth + 1);
      // defineProperty: a key named "__proto__" must be data, not a prototype change.
      Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      this.skipWs();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x7d) return out;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
