/** JSON text with object keys sorted and 2-space indentation: the reference's tool text form. */
export function stableJson(value: unknown): string {
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
