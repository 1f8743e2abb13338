/**
 * A JSON text reader that behaves like CPython 3.12's `json.loads` (the C scanner) on every
 * input the harness can see: RFC 8259 plus `NaN`, `Infinity`, `-Infinity`; whitespace is only
 * space, tab, LF, CR; raw control characters inside strings are errors (strict mode); `\u`
 * escapes may leave lone surrogates; integers over 4300 digits are errors (Python's
 * int-from-string limit); a leading U+FEFF is an error.
 */
import { type JValue, jFloat, jInt, jObject } from './json-value.js';

/** The text is not JSON in Python's sense (`json.JSONDecodeError` / `ValueError`). */
export class OracleJsonError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'OracleJsonError';
  }
}

const PY_INT_MAX_STR_DIGITS = 4300;

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new OracleJsonError(message, this.pos);
  }

  skipWs(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  startsWith(word: string): boolean {
    return this.text.startsWith(word, this.pos);
  }

  value(depth: number): JValue {
    if (depth > 900) this.fail('nesting too deep');
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case '"':
        return this.string();
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case 'n':
        if (this.startsWith('null')) {
          this.pos += 4;
          return null;
        }
        break;
      case 't':
        if (this.startsWith('true')) {
          this.pos += 4;
          return true;
        }
        break;
      case 'f':
        if (this.startsWith('false')) {
          this.pos += 5;
          return false;
        }
        break;
      case 'N':
        if (this.startsWith('NaN')) {
          this.pos += 3;
          return jFloat(Number.NaN);
        }
        break;
      case 'I':
        if (this.startsWith('Infinity')) {
          this.pos += 8;
          return jFloat(Number.POSITIVE_INFINITY);
        }
        break;
      case '-':
        if (this.startsWith('-Infinity')) {
          this.pos += 9;
          return jFloat(Number.NEGATIVE_INFINITY);
        }
        return this.number();
      default:
        if (c !== undefined && c >= '0' && c <= '9') return this.number();
    }
    return this.fail('Expecting value');
  }

  number(): JValue {
    const t = this.text;
    const start = this.pos;
    const isDigit = (i: number) => {
      const c = t.charCodeAt(i);
      return c >= 0x30 && c <= 0x39;
    };
    let p = start;
    if (t[p] === '-') p++;
    if (t[p] === '0') p++;
    else if (isDigit(p)) {
      while (isDigit(p)) p++;
    } else {
      this.fail('Expecting value');
    }
    const intEnd = p;
    let isFloat = false;
    if (t[p] === '.' && isDigit(p + 1)) {
      p += 2;
      while (isDigit(p)) p++;
      isFloat = true;
    }
    if ((t[p] === 'e' || t[p] === 'E') && (isDigit(p + 1) || ((t[p + 1] === '+' || t[p + 1] === '-') && isDigit(p + 2)))) {
      p += t[p + 1] === '+' || t[p + 1] === '-' ? 3 : 2;
      while (isDigit(p)) p++;
      isFloat = true;
    }
    this.pos = p;
    const token = t.slice(start, p);
    if (isFloat) return jFloat(Number(token));
    const digits = intEnd - start - (t[start] === '-' ? 1 : 0);
    if (digits > PY_INT_MAX_STR_DIGITS) this.fail('integer string conversion limit exceeded');
    return jInt(BigInt(token));
  }

  hex4(at: number): number {
    const h = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) {
      this.pos = at;
      this.fail('Invalid \\uXXXX escape');
    }
    return Number.parseInt(h, 16);
  }

  string(): string {
    const t = this.text;
    let p = this.pos + 1;
    let out = '';
    let chunkStart = p;
    for (;;) {
      if (p >= t.length) {
        this.pos = p;
        this.fail('Unterminated string');
      }
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        out += t.slice(chunkStart, p);
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) {
        this.pos = p;
        this.fail('Invalid control character');
      }
      if (c !== 0x5c) {
        p++;
        continue;
      }
      out += t.slice(chunkStart, p);
      const e = t[p + 1];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          // Python pairs a high-surrogate escape with an immediately following low one; JS string
          // concatenation of the two code units has the same result, and a lone one stays lone.
          out += String.fromCharCode(this.hex4(p + 2));
          p += 6;
          chunkStart = p;
          continue;
        }
        default:
          this.pos = p;
          this.fail('Invalid \\escape');
      }
      p += 2;
      chunkStart = p;
    }
  }

  object(depth: number): JValue {
    this.pos++;
    const entries = new Map<string, JValue>();
    this.skipWs();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return jObject(entries);
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      const v = this.value(depth + 1);
      entries.set(key, v);
      this.skipWs();
      const c = this.text[this.pos];
      if (c === '}') {
        this.pos++;
        return jObject(entries);
      }
      if (c !== ',') this.fail("Expecting ',' delimiter");
      this.pos++;
      this.skipWs();
    }
  }

  array(depth: number): JValue {
    this.pos++;
    const items: JValue[] = [];
    this.skipWs();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.skipWs();
      const c = this.text[this.pos];
      if (c === ']') {
        this.pos++;
        return items;
      }
      if (c !== ',') this.fail("Expecting ',' delimiter");
      this.pos++;
      this.skipWs();
    }
  }
}

/** Reads one JSON text the way Python's `json.loads` does. Throws {@link OracleJsonError}. */
export function readJsonText(text: string): JValue {
  const r = new Reader(text);
  if (text.charCodeAt(0) === 0xfeff) r.fail('Unexpected UTF-8 BOM');
  r.skipWs();
  const v = r.value(0);
  r.skipWs();
  if (r.pos !== text.length) r.fail('Extra data');
  return v;
}
