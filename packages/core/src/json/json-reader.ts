/**
 * The one JSON lexer of the project. Readers differ only where JSON readers disagree (float tokens,
 * `NaN`/`Infinity`, duplicate keys, lone surrogate escapes, nesting, very long integers), so those
 * are policy options and everything else (grammar, escapes, whitespace, `__proto__` as an ordinary
 * key, exact integers) is written once: core's Python-compatible reader and canonical's
 * trust-bearing reader are two policies of it.
 */
import { JsonFloat } from './json-float.js';
import { isWellFormed } from './utf8.js';

/** What a {@link readJsonWith} reader refused, for the caller's error type. */
export type JsonProblem = 'syntax' | 'float' | 'duplicate_key' | 'lone_surrogate' | 'too_deep';

/** Where readers disagree, decided. */
export interface JsonReadPolicy {
  /**
   * Float tokens (with `.`, `e` or `E`): `python` reads a number, or a {@link JsonFloat} when the value is
   * integral or non-finite (Python keeps `5.0` a float); `number` reads a number; `keep` always a
   * {@link JsonFloat}; `refuse` is a `float` problem, even for `1.0`.
   */
  readonly floats: 'python' | 'number' | 'keep' | 'refuse';
  /** `NaN`, `Infinity`, `-Infinity`: read as {@link JsonFloat} (Python does), or a `float` problem. */
  readonly nonFiniteLiterals: boolean;
  /** `last` wins (Python), or `refuse` (a `duplicate_key` problem). */
  readonly duplicateKeys: 'last' | 'refuse';
  /** A string whose escapes leave a lone surrogate: `keep` it (Python), or `refuse` (a `lone_surrogate` problem). */
  readonly loneSurrogates: 'keep' | 'refuse';
  /** Arrays and objects nested deeper than this are a `too_deep` problem. */
  readonly maxDepth: number;
  /** Integer tokens with more digits than this are a `syntax` problem (Python 3.12 refuses over 4,300). */
  readonly maxIntegerDigits: number;
  /** Whether problems name the JSON path (`$.a[2]`); without it they say `$` (cheaper). */
  readonly paths: boolean;
}

/** Turns a problem into the caller's error; must throw. */
export type JsonFail = (problem: JsonProblem, path: string, message: string) => never;

/**
 * Read one JSON value filling all of `text` (whitespace around it allowed) under `policy`. Integers
 * stay exact (`number` when safe, else `bigint`), `-0` reads as the integer `0`, and a key named
 * `__proto__` is an ordinary key. Every refusal goes through `fail`, with the offset in the message.
 */
export function readJsonWith(text: string, policy: JsonReadPolicy, fail: JsonFail): unknown {
  const reader = new JsonReader(text, policy, fail);
  reader.skipSpace();
  const value = reader.value('$', 0);
  reader.skipSpace();
  if (reader.pos < text.length) reader.syntax('$', 'unexpected text after the JSON value');
  return value;
}

/** `parent.key`: an object member appended to a JSON path, the key written raw (as the reference prints paths). */
export function jsonMemberPath(parent: string, key: string): string {
  return `${parent}.${key}`;
}

/** `parent[index]`: an array element appended to a JSON path. */
export function jsonIndexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

class JsonReader {
  pos = 0;
  // The policy's fields copied onto the reader: one property load per use in the hot loops.
  readonly refuseLoneSurrogates: boolean;
  readonly paths: boolean;
  readonly maxDepth: number;
  constructor(
    readonly text: string,
    readonly policy: JsonReadPolicy,
    readonly fail: JsonFail,
  ) {
    this.refuseLoneSurrogates = policy.loneSurrogates === 'refuse';
    this.paths = policy.paths;
    this.maxDepth = policy.maxDepth;
  }

  syntax(path: string, message: string): never {
    return this.fail('syntax', path, `${message} (offset ${this.pos})`);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  value(path: string, depth: number): unknown {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */:
        return this.object(path, depth + 1);
      case 0x5b /* [ */:
        return this.array(path, depth + 1);
      case 0x22 /* " */:
        return this.string(path);
      case 0x74 /* t */:
        return this.literal('true', true, path);
      case 0x66 /* f */:
        return this.literal('false', false, path);
      case 0x6e /* n */:
        return this.literal('null', null, path);
      case 0x4e /* N */:
        return this.nonFinite('NaN', Number.NaN, path);
      case 0x49 /* I */:
        return this.nonFinite('Infinity', Number.POSITIVE_INFINITY, path);
      default:
        if (c === 0x2d && t.startsWith('-Infinity', this.pos)) return this.nonFinite('-Infinity', Number.NEGATIVE_INFINITY, path);
        if (c === 0x2d || isDigit(c)) return this.number(path);
        return this.syntax(path, Number.isNaN(c) ? 'unexpected end of text' : `unexpected character ${JSON.stringify(t[this.pos])}`);
    }
  }

  literal<T>(word: string, result: T, path: string): T {
    if (!this.text.startsWith(word, this.pos)) this.syntax(path, `unexpected token (expected ${word})`);
    this.pos += word.length;
    return result;
  }

  nonFinite(word: string, value: number, path: string): JsonFloat {
    if (!this.text.startsWith(word, this.pos)) this.syntax(path, `unexpected token (expected ${word})`);
    if (!this.policy.nonFiniteLiterals) this.fail('float', path, `${word} is a float, not supported`);
    this.pos += word.length;
    return new JsonFloat(value);
  }

  // Python's grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?, the longest match; what follows must
  // then be a separator, so `01`, `1.` and `1e` are refused where the value ends.
  number(path: string): number | bigint | JsonFloat {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) p++;
    const intStart = p;
    if (t.charCodeAt(p) === 0x30) p++;
    else while (isDigit(t.charCodeAt(p))) p++;
    if (p === intStart) {
      this.pos = p;
      this.syntax(path, 'expected a digit');
    }
    let float = false;
    if (t.charCodeAt(p) === 0x2e && isDigit(t.charCodeAt(p + 1))) {
      float = true;
      p += 2;
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      let q = p + 1;
      const s = t.charCodeAt(q);
      if (s === 0x2b || s === 0x2d) q++;
      if (isDigit(t.charCodeAt(q))) {
        float = true;
        while (isDigit(t.charCodeAt(q))) q++;
        p = q;
      }
    }
    const token = t.slice(start, p);
    if (float) {
      const floats = this.policy.floats;
      if (floats === 'refuse') this.fail('float', path, `${token} is a float, not supported`);
      this.pos = p;
      const v = Number(token);
      if (floats === 'number') return v;
      return floats === 'keep' || Number.isInteger(v) || !Number.isFinite(v) ? new JsonFloat(v) : v;
    }
    const v = Number(token);
    if (Number.isSafeInteger(v)) {
      this.pos = p;
      return v === 0 ? 0 : v; // -0 is the integer 0
    }
    if (p - intStart > this.policy.maxIntegerDigits) {
      this.syntax(path, `integer token of ${p - intStart} digits exceeds the limit of ${this.policy.maxIntegerDigits}`);
    }
    this.pos = p;
    const big = BigInt(token);
    // A token like 0000…1 cannot occur (no leading zeros), but a long token can still be safe.
    return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big;
  }

  string(path: string): string {
    const t = this.text;
    const p0 = this.pos + 1;
    // Fast path: no escape and no control character before the closing quote.
    const close = t.indexOf('"', p0);
    if (close >= 0) {
      let plain = true;
      for (let i = p0; i < close; i++) {
        const c = t.charCodeAt(i);
        if (c === 0x5c || c < 0x20) {
          plain = false;
          break;
        }
      }
      if (plain) {
        this.pos = close + 1;
        return this.checked(t.slice(p0, close), path);
      }
    }
    let p = p0;
    let out = '';
    let chunk = p;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) break;
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
              this.syntax(path, 'malformed \\u escape');
            }
            out += String.fromCharCode(Number.parseInt(hex, 16));
            p += 4;
            break;
          }
          default:
            this.pos = p - 1;
            this.syntax(path, 'unknown escape');
        }
        chunk = p;
        continue;
      }
      if (Number.isNaN(c)) {
        this.pos = p;
        this.syntax(path, 'unterminated string');
      }
      // Raw control characters are refused (Python's strict decoder, RFC 8259).
      if (c < 0x20) {
        this.pos = p;
        this.syntax(path, 'raw control character in string');
      }
      p++;
    }
    out += t.slice(chunk, p);
    this.pos = p + 1;
    return this.checked(out, path);
  }

  /** A string value under the lone-surrogate policy (from a `\u` escape, or in a JS string given as text). */
  checked(value: string, path: string): string {
    if (this.refuseLoneSurrogates && !isWellFormed(value)) this.fail('lone_surrogate', path, 'string contains a lone surrogate');
    return value;
  }

  array(path: string, depth: number): unknown[] {
    if (depth > this.maxDepth) this.fail('too_deep', path, `nesting deeper than ${this.maxDepth} levels`);
    this.pos++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return out;
    }
    const paths = this.paths;
    for (;;) {
      this.skipSpace();
      out.push(this.value(paths ? jsonIndexPath(path, out.length) : path, depth));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x5d) return out;
      if (c !== 0x2c) {
        this.pos--;
        this.syntax(path, "expected ',' or ']'");
      }
    }
  }

  object(path: string, depth: number): Record<string, unknown> {
    if (depth > this.maxDepth) this.fail('too_deep', path, `nesting deeper than ${this.maxDepth} levels`);
    this.pos++;
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return out;
    }
    const paths = this.paths;
    for (;;) {
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.syntax(path, 'expected a string key');
      const key = this.string(path);
      const at = paths ? jsonMemberPath(path, key) : path;
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.syntax(at, "expected ':'");
      this.pos++;
      this.skipSpace();
      const item = this.value(at, depth);
      if (this.policy.duplicateKeys === 'refuse' && Object.hasOwn(out, key)) this.fail('duplicate_key', at, 'duplicate object key');
      // defineProperty, not assignment: `__proto__` is an ordinary key.
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 0x7d) return out;
      if (c !== 0x2c) {
        this.pos--;
        this.syntax(path, "expected ',' or '}'");
      }
    }
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
