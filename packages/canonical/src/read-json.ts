import { decodeUtf8, JsonFloat } from '@ewp/core';
import { CanonicalizationError, indexPath, memberPath } from './canonicalization-error.js';
import { EBCJ1_MAX_DEPTH } from './ebcj1.js';

/** How {@link readJsonExact} treats what `JSON.parse` would silently change. */
export interface ReadJsonOptions {
  /**
   * `refuse` (default, EBCJ-1, docs/spec/receipts.md §1.3): any number token with `.`, `e` or `E` is refused, even `1.0`.
   * `number`: such tokens become JS numbers (for RFC 8785 / JCS input).
   * `keep`: such tokens become `@ewp/core`'s `JsonFloat` instances, which EBCJ-1 refuses where they are used
   * (for stored data that must be reported, not rejected wholesale, like an audit log).
   */
  floats?: 'refuse' | 'number' | 'keep';
  /** `refuse` (default, recommended by docs/spec/receipts.md §1.3) or `last` (the reference's behaviour: last value wins). */
  duplicateKeys?: 'refuse' | 'last';
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A trust-bearing JSON reader (docs/spec/receipts.md §1.3): integers stay exact (`number` when safe, else `bigint`),
 * `-0` reads as `0`, floats are classified lexically, escapes that leave a lone surrogate are refused,
 * duplicate keys are refused by default, and `__proto__` is an ordinary key.
 *
 * It differs from `@ewp/core`'s `parseJson` on purpose: core follows Python's reader (floats kept,
 * last duplicate wins) for EWP views; this one feeds EBCJ-1, which must refuse floats and ambiguity.
 * @throws {CanonicalizationError} code `JSON_SYNTAX`, `FLOAT`, `DUPLICATE_KEY`, `LONE_SURROGATE` or
 * `TOO_DEEP`, with the JSON path where the problem was found.
 * @throws {import('@ewp/core').InvalidUtf8Error} `INVALID_UTF8` (with the byte offset) when `input` is bytes that are not UTF-8.
 */
export function readJsonExact(input: string | Uint8Array, options: ReadJsonOptions = {}): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  const reader = new Reader(text, options.floats ?? 'refuse', options.duplicateKeys ?? 'refuse');
  reader.skipSpace();
  const value = reader.value('$', 0);
  reader.skipSpace();
  if (reader.pos < text.length) reader.syntax('$', 'unexpected text after the JSON value');
  return value;
}

class Reader {
  pos = 0;
  constructor(
    readonly text: string,
    readonly floats: 'refuse' | 'number' | 'keep',
    readonly duplicateKeys: 'refuse' | 'last',
  ) {}

  syntax(path: string, message: string): never {
    throw new CanonicalizationError('JSON_SYNTAX', path, `${message} (offset ${this.pos})`);
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
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.object(path, depth + 1);
      case 0x5b: // [
        return this.array(path, depth + 1);
      case 0x22: // "
        return this.string(path);
      case 0x74:
        return this.literal('true', true, path);
      case 0x66:
        return this.literal('false', false, path);
      case 0x6e:
        return this.literal('null', null, path);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number(path);
        if (this.text.startsWith('NaN', this.pos) || this.text.startsWith('Infinity', this.pos)) {
          throw new CanonicalizationError('FLOAT', path, 'NaN and Infinity are floats, not supported');
        }
        return this.syntax(path, Number.isNaN(c) ? 'unexpected end of text' : 'unexpected character');
    }
  }

  literal<T>(word: string, result: T, path: string): T {
    if (!this.text.startsWith(word, this.pos)) this.syntax(path, 'unexpected character');
    this.pos += word.length;
    return result;
  }

  number(path: string): number | bigint | JsonFloat {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) {
      p++;
      if (t.startsWith('Infinity', p)) {
        throw new CanonicalizationError('FLOAT', path, 'NaN and Infinity are floats, not supported');
      }
    }
    const firstDigit = p;
    while (isDigit(t.charCodeAt(p))) p++;
    if (p === firstDigit) this.syntax(path, 'malformed number');
    if (t.charCodeAt(firstDigit) === 0x30 && p - firstDigit > 1) this.syntax(path, 'leading zero in number');
    let float = false;
    if (t.charCodeAt(p) === 0x2e) {
      float = true;
      p++;
      const f = p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === f) this.syntax(path, 'malformed number');
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      float = true;
      p++;
      const s = t.charCodeAt(p);
      if (s === 0x2b || s === 0x2d) p++;
      const d = p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === d) this.syntax(path, 'malformed number');
    }
    this.pos = p;
    const token = t.slice(start, p);
    if (float) {
      if (this.floats === 'refuse') {
        throw new CanonicalizationError('FLOAT', path, 'floats are not supported by EBCJ-1');
      }
      return this.floats === 'keep' ? new JsonFloat(Number(token)) : Number(token);
    }
    if (p - start <= 15) {
      const n = Number(token);
      return n === 0 ? 0 : n; // -0 is the integer 0
    }
    const big = BigInt(token);
    return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big;
  }

  string(path: string): string {
    const t = this.text;
    let p = this.pos + 1;
    let out = '';
    let chunk = p;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) break;
      if (Number.isNaN(c)) {
        this.pos = p;
        this.syntax(path, 'unterminated string');
      }
      if (c < 0x20) {
        this.pos = p;
        this.syntax(path, 'raw control character in string');
      }
      if (c === 0x5c) {
        out += t.slice(chunk, p);
        p++;
        const e = t.charCodeAt(p);
        switch (e) {
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
            const hex = t.slice(p + 1, p + 5);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              this.pos = p;
              this.syntax(path, 'malformed \\u escape');
            }
            out += String.fromCharCode(Number.parseInt(hex, 16));
            p += 4;
            break;
          }
          default:
            this.pos = p;
            this.syntax(path, 'unknown escape');
        }
        p++;
        chunk = p;
      } else {
        p++;
      }
    }
    out += t.slice(chunk, p);
    this.pos = p + 1;
    if (/[\ud800-\udfff]/u.test(out)) {
      throw new CanonicalizationError('LONE_SURROGATE', path, 'string contains a lone surrogate');
    }
    return out;
  }

  array(path: string, depth: number): unknown[] {
    if (depth > EBCJ1_MAX_DEPTH) {
      throw new CanonicalizationError('TOO_DEEP', path, `nesting deeper than ${EBCJ1_MAX_DEPTH} levels`);
    }
    this.pos++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      out.push(this.value(indexPath(path, out.length), depth));
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
    if (depth > EBCJ1_MAX_DEPTH) {
      throw new CanonicalizationError('TOO_DEEP', path, `nesting deeper than ${EBCJ1_MAX_DEPTH} levels`);
    }
    this.pos++;
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.syntax(path, 'expected a string key');
      const key = this.string(path);
      const at = memberPath(path, key);
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.syntax(at, "expected ':'");
      this.pos++;
      this.skipSpace();
      const item = this.value(at, depth);
      if (Object.hasOwn(out, key)) {
        if (this.duplicateKeys === 'refuse') {
          throw new CanonicalizationError('DUPLICATE_KEY', at, 'duplicate object key');
        }
      }
      // defineProperty, not assignment: `__proto__` is an ordinary key here.
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

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
