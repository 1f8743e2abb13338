/**
 * The oracle's own JSON value model. It keeps what Python's `json` module keeps and
 * JavaScript's `JSON.parse` loses (docs/spec/protocol.md §3.1, §11.1): integer vs float tokens, exact big
 * integers, non-finite floats, and last-wins duplicate keys (in first-insertion position, like a
 * Python dict).
 */

/** An integer token of unlimited size (`5`, `-0`, `12345678901234567890`). */
export interface JInt {
  readonly kind: 'int';
  readonly value: bigint;
}

/** A float token (`5.0`, `1e3`, `1e400` → Infinity, `NaN`). */
export interface JFloat {
  readonly kind: 'float';
  readonly value: number;
}

/** A JSON object; `Map` keeps Python dict semantics (first position, last value). */
export interface JObject {
  readonly kind: 'object';
  readonly entries: Map<string, JValue>;
}

export type JValue = null | boolean | string | JInt | JFloat | JObject | JValue[];

export function jInt(value: bigint): JInt {
  return { kind: 'int', value };
}

export function jFloat(value: number): JFloat {
  return { kind: 'float', value };
}

export function jObject(entries: Map<string, JValue>): JObject {
  return { kind: 'object', entries };
}

export function isJObject(v: JValue | undefined): v is JObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && v.kind === 'object';
}

export function isJInt(v: JValue | undefined): v is JInt {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && v.kind === 'int';
}

export function isJFloat(v: JValue | undefined): v is JFloat {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && v.kind === 'float';
}

/**
 * Converts a plain JavaScript value (as `JSON.parse` or a generator produces it) to the model.
 * An integral JS number is an integer token, any other number a float token (docs/spec/protocol.md §11.1).
 */
export function fromPlain(value: unknown): JValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return jInt(value);
  if (typeof value === 'number') {
    return Number.isInteger(value) && !Object.is(value, -0) ? jInt(BigInt(value)) : jFloat(value);
  }
  if (Array.isArray(value)) return value.map(fromPlain);
  if (typeof value === 'object') {
    const entries = new Map<string, JValue>();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== undefined) entries.set(k, fromPlain(v));
    }
    return jObject(entries);
  }
  throw new TypeError(`fromPlain: unsupported value of type ${typeof value}`);
}

/** Converts a model value to plain JavaScript (integers to number when safe, else bigint). */
export function toPlain(value: JValue): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value.kind === 'int') {
    const n = Number(value.value);
    return Number.isSafeInteger(n) ? n : value.value;
  }
  if (value.kind === 'float') return value.value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of value.entries) {
    Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
