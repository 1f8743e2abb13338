/**
 * Deterministic JSON text (object keys sorted, no whitespace) for comparing record content and
 * hashing memory values. Only plain JSON data is expected: a decoded EvidenceView, or the value
 * of a LangGraph item.
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`);
  return `{${parts.join(',')}}`;
}
