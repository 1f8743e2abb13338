/** JSON text with object keys sorted and 2-space indentation: the reference's tool text form. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    // The default sort compares UTF-16 code units, as `<` does; one plain object, no entry arrays.
    const record = value as Record<string, unknown>;
    // No prototype: a `__proto__` key stays an ordinary key.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(record).sort()) out[key] = sortKeys(record[key]);
    return out;
  }
  return value;
}
