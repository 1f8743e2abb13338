/**
 * JSON text with object keys sorted by UTF-16 code units at every depth and 2-space indentation: the
 * reference's tool text form. Integer-like keys sort as the strings they are (an object would put them
 * first, in numeric order).
 */
export function stableJson(value: unknown): string {
  const text = writeSorted(value, '\n', JSON.stringify);
  return typeof text === 'string' ? text : notPlainData(value);
}

/** Not plain data (a class instance, a `toJSON`, a bigint, undefined): as JSON.stringify treats it. */
function notPlainData(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) out[i] = sortKeys(value[i]);
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    // The default sort compares UTF-16 code units, as `<` does. Keys are added in that order to a plain
    // object, which JSON.stringify serialises on its fast path (an object without a prototype is a
    // dictionary to V8, several times slower to write out).
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const keys = Object.keys(record).sort();
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] as string;
      // `__proto__` stays an ordinary key (an assignment would set the prototype instead).
      if (key === '__proto__') Object.defineProperty(out, key, { value: sortKeys(record[key]), enumerable: true, writable: true, configurable: true });
      else out[key] = sortKeys(record[key]);
    }
    return out;
  }
  return value;
}

/**
 * `JSON.stringify(stableJson(value))`: the tool text as a JSON string literal, ready to be placed in a
 * reply, written in one pass (building the sorted text and escaping it again cost most of a warrant
 * call's serialization).
 */
export function stableJsonLiteral(value: unknown): string {
  const text = writeSorted(value, '\\n', stringLiteral);
  return typeof text === 'string' ? `"${text}"` : JSON.stringify(notPlainData(value));
}

/** Strings that need no escape, at either level: no quote, backslash, control character or surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** A string's JSON text as it appears inside the literal of {@link stableJsonLiteral}. */
export function stringLiteral(s: string): string {
  return PLAIN.test(s) ? `\\"${s}\\"` : JSON.stringify(JSON.stringify(s)).slice(1, -1);
}

/**
 * The sorted, indented text of `value`, strings written by `quote`: `newline` is the newline (or its
 * escape, inside a literal) followed by the current indentation. Undefined for a value that is not
 * plain data; `null` marks a member JSON drops.
 */
function writeSorted(value: unknown, newline: string, quote: (s: string) => string): string | undefined | null {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return null;
    case 'bigint':
      return undefined;
  }
  if (value === null) return 'null';
  const inner = `${newline}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      const item = writeSorted(value[i], inner, quote);
      if (item === undefined) return undefined;
      out += `${i === 0 ? '' : ','}${inner}${item ?? 'null'}`;
    }
    return `${out}${newline}]`;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(Object.keys(record));
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    const member = writeSorted(record[key], inner, quote);
    if (member === undefined) return undefined;
    if (member === null) continue;
    out += `${first ? '' : ','}${inner}${quote(key)}: ${member}`;
    first = false;
  }
  return first ? '{}' : `${out}${newline}}`;
}

/** The last key lists sorted, by their first key: results of one tool have one shape, sorted once. */
const sortedByFirstKey = new Map<string, { keys: string[]; sorted: string[] }>();

/** `keys` sorted by UTF-16 code units (the default sort), reusing the order of an identical list. */
function sortedKeys(keys: string[]): string[] {
  if (keys.length < 4) return keys.sort();
  const first = keys[0] as string;
  const known = sortedByFirstKey.get(first);
  if (known !== undefined && known.keys.length === keys.length) {
    let same = true;
    for (let i = 1; i < keys.length; i += 1) {
      if (known.keys[i] !== keys[i]) {
        same = false;
        break;
      }
    }
    if (same) return known.sorted;
  }
  const sorted = [...keys].sort();
  if (sortedByFirstKey.size >= 64) sortedByFirstKey.clear();
  sortedByFirstKey.set(first, { keys, sorted });
  return sorted;
}
