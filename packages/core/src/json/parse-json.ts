import { InvalidEvidenceView } from '../errors.js';

/**
 * A JSON float token whose value a JavaScript number cannot mark as a float: an integral value
 * (`5.0`, `1e3`) or a non-finite one (`1e400`, `NaN`, `Infinity`). Python's decoder keeps
 * `5` (int) and `5.0` (float) apart, and the reference refuses or converts them differently.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
}

/**
 * Parse JSON text the way Python's `json` module does (SPEC §3.1, §11.1):
 * integer tokens stay exact (`number` when safe, `bigint` beyond 2^53), float tokens become
 * numbers (or {@link JsonFloat} when integral or non-finite), `NaN` / `Infinity` / `-Infinity`
 * are accepted, the last duplicate key wins, lone surrogate escapes are kept.
 * @throws InvalidEvidenceView with code `JSON_SYNTAX` (path `$`) on malformed text.
 */
export function parseJson(text: string): unknown {
  const parser = new Parser(text);
  parser.skipWs();
  const value = parser.value(0);
  parser.skipWs();
  if (parser.pos !== text.length) parser.fail('extra data after the JSON value');
  return value;
}

// Python's decoder fails near its recursion limit (1000) as well.
const MAX_DEPTH = 1_000;
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
          case 0x22: out += '"'; break;
          case 0x5c: out += '\\'; break;
          case 0x2f: out += '/'; break;
          case 0x62: out += '\b'; break;
          case 0x66: out += '\f'; break;
          case 0x6e: out += '\n'; break;
          case 0x72: out += '\r'; break;
          case 0x74: out += '\t'; break;
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
