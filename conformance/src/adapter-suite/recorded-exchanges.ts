import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One request and response of a real memory-store API, recorded for a local test server to replay. */
export interface RecordedExchange {
  request: { method: string; path: string; body?: unknown };
  response: { status: number; body: unknown };
}

/** Every `*.json` recorded exchange in `dir`, with its file name. */
export function loadRecordedExchanges(dir: string): (readonly [file: string, exchange: RecordedExchange])[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordedExchange] as const);
}

/**
 * The shape of a JSON value: key sets (sorted) and value types, arrays by their first element.
 * `collapse(key, value)` may name a member's shape instead (e.g. "opaque" for free-form metadata);
 * undefined compares the member by its own shape.
 */
export function jsonShape(value: unknown, collapse: (key: string, value: unknown) => string | undefined): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [jsonShape(value[0], collapse)];
  if (value === null) return 'null';
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, collapse(k, v) ?? jsonShape(v, collapse)]),
    );
  }
  return typeof value;
}
