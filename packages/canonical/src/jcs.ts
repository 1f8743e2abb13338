import { type CanonicalizationCode, CanonicalizationError, indexPath, memberPath } from './canonicalization-error.js';
import { EBCJ1_MAX_DEPTH, encodeUtf8 } from './ebcj1.js';
import { SLOW_PATH, createFastWriter } from './fast-writer.js';
import { isWellFormed } from './well-formed.js';

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a value. Used for EWP views and warrants, which
 * carry floats (`assertion_confidence`) that EBCJ-1 refuses.
 *
 * Differences from EBCJ-1, as RFC 8785 requires: members are sorted by UTF-16 code unit (not code
 * point); numbers are IEEE doubles written with ECMAScript `Number.prototype.toString` (so `1.0` is `1`,
 * `1e21` is `1e+21`); NaN and ±Infinity are refused. A `bigint` is accepted only when it is a safe
 * integer (a larger one has no exact double). `-0` is `0`.
 * @throws {CanonicalizationError} for values with no I-JSON form, with the JSON path.
 */
export function jcsString(value: unknown): string {
  try {
    return fastWrite(value);
  } catch (error) {
    if (error !== SLOW_PATH) throw error;
    // Anything unusual (bigints, JsonFloat, refusals): the explicit writer.
    return write(value, '$', 0, []);
  }
}

/** RFC 8785 canonical bytes (UTF-8) of a value. @throws {CanonicalizationError} */
export function jcsBytes(value: unknown): Uint8Array {
  return encodeUtf8(jcsString(value));
}

/*
 * Fast path: RFC 8785 is JSON's output (ECMAScript number form, the same string escapes) with
 * members sorted by UTF-16 code unit. Bigints and JsonFloat wrappers go to the explicit writer.
 */
const fastWrite = createFastWriter({
  order: 'code-unit',
  maxDepth: EBCJ1_MAX_DEPTH,
  number(n) {
    if (!Number.isFinite(n)) throw SLOW_PATH;
    return n === 0 ? '0' : String(n);
  },
  bigint() {
    throw SLOW_PATH;
  },
});

function refuse(code: CanonicalizationCode, path: string, message: string): never {
  throw new CanonicalizationError(code, path, message);
}

function writeNumber(n: number, path: string): string {
  if (!Number.isFinite(n)) refuse('FLOAT', path, 'NaN and Infinity have no JSON form');
  return n === 0 ? '0' : String(n);
}

function writeString(s: string, path: string): string {
  if (!isWellFormed(s)) refuse('LONE_SURROGATE', path, 'string contains a lone surrogate');
  return JSON.stringify(s);
}

function write(value: unknown, path: string, depth: number, stack: object[]): string {
  switch (typeof value) {
    case 'string':
      return writeString(value, path);
    case 'number':
      return writeNumber(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        refuse('UNSAFE_NUMBER', path, 'integer beyond 2^53-1 has no exact IEEE double (RFC 8785)');
      }
      return String(Number(value));
    case 'object': {
      if (value === null) return 'null';
      if (depth + 1 > EBCJ1_MAX_DEPTH) {
        if (stack.includes(value)) refuse('CYCLE', path, 'value contains a cycle');
        refuse('TOO_DEEP', path, `nesting deeper than ${EBCJ1_MAX_DEPTH} levels`);
      }
      stack.push(value);
      const out = writeContainer(value, path, depth + 1, stack);
      stack.pop();
      return out;
    }
    default:
      return refuse('UNSUPPORTED_TYPE', path, `unsupported type ${typeof value}`);
  }
}

function writeContainer(value: object, path: string, depth: number, stack: object[]): string {
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) refuse('SPARSE_ARRAY', indexPath(path, i), 'array has a hole');
      const item: unknown = value[i];
      if (item === undefined) refuse('UNSUPPORTED_TYPE', indexPath(path, i), 'unsupported type undefined');
      parts.push(write(item, indexPath(path, i), depth, stack));
    }
    return `[${parts.join(',')}]`;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    // @ewp/core's reader keeps `1.0`-style tokens as JsonFloat; to JCS that is just the double.
    const inner = (value as { value?: unknown }).value;
    if (name === 'JsonFloat' && typeof inner === 'number') return writeNumber(inner, path);
    refuse('UNSUPPORTED_TYPE', path, `unsupported type ${name}`);
  }
  if (Object.getOwnPropertySymbols(value).length > 0) refuse('NON_STRING_KEY', path, 'mapping key is not a string');
  const obj = value as Record<string, unknown>;
  // RFC 8785 §3.2.3: sort by UTF-16 code units, which is exactly the default string order.
  const keys = Object.keys(obj).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const at = memberPath(path, key);
    if (!isWellFormed(key)) refuse('LONE_SURROGATE', at, 'mapping key contains a lone surrogate');
    const item = obj[key];
    if (item === undefined) refuse('UNSUPPORTED_TYPE', at, 'unsupported type undefined');
    parts.push(`${JSON.stringify(key)}:${write(item, at, depth, stack)}`);
  }
  return `{${parts.join(',')}}`;
}
