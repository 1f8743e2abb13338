import { sortedByCodePoint } from '@ewp/core';
import { type CanonicalizationCode, CanonicalizationError, indexPath, memberPath } from './canonicalization-error.js';
import { SLOW_PATH, createFastWriter } from './fast-writer.js';
import { isWellFormed } from './well-formed.js';

/** The canonicalization version string bound into every receipt. */
export const EBCJ1_VERSION = 'EBCJ-1' as const;

/**
 * Deepest container nesting EBCJ-1 accepts here. The reference manages about 997 levels (Python's
 * recursion limit); docs/spec/receipts.md §1.1 asks for at least 500. Deeper values are refused with `TOO_DEEP`.
 */
export const EBCJ1_MAX_DEPTH = 990;

/** CPython's int/str conversion limit: the reference cannot print longer integers (docs/spec/receipts.md §1.1). */
export const EBCJ1_MAX_INTEGER_DIGITS = 4300;

const utf8 = new TextEncoder();

/** UTF-8 bytes of a string: Buffer in Node (much faster than TextEncoder), TextEncoder elsewhere. */
export const encodeUtf8: (s: string) => Uint8Array =
  typeof Buffer === 'function'
    ? (s) => {
        // allocUnsafe + write is several times faster than Buffer.from for large strings (no zero-fill).
        const out = Buffer.allocUnsafe(Buffer.byteLength(s, 'utf8'));
        out.write(s, 0, 'utf8');
        return out;
      }
    : (s) => utf8.encode(s);

/**
 * The EBCJ-1 canonical text of a value: no whitespace, members sorted by code point,
 * integers in plain decimal, strings with exactly JSON's short escapes and lowercase `\u00xx`.
 *
 * Accepted values: `null`, booleans, safe-integer numbers (`-0` is `0`), bigints, well-formed strings,
 * dense arrays and plain objects (prototype `Object.prototype` or `null`, no symbol keys) of those.
 * @throws {CanonicalizationError} on anything else, with the JSON path of the first problem.
 */
export function ebcj1String(value: unknown): string {
  try {
    return fastWrite(value);
  } catch (error) {
    if (error !== SLOW_PATH) throw error;
    // Every refusal (reported with its path) and cycles: the explicit writer.
    return write(value, '$', 0, []);
  }
}

/** The EBCJ-1 canonical bytes (UTF-8, no BOM) of a value. @throws {CanonicalizationError} */
export function ebcj1Bytes(value: unknown): Uint8Array {
  return encodeUtf8(ebcj1String(value));
}

/*
 * Fast path. For well-formed strings JSON.stringify escapes exactly the set of docs/spec/receipts.md §1.2 (checked by
 * the vectors); safe integers and bigints print in plain decimal.
 */
const fastWrite = createFastWriter({
  order: 'code-point',
  maxDepth: EBCJ1_MAX_DEPTH,
  number(n) {
    if (!Number.isSafeInteger(n)) throw SLOW_PATH;
    return n === 0 ? '0' : String(n);
  },
  bigint(n) {
    const text = n.toString();
    if (text.length > EBCJ1_MAX_INTEGER_DIGITS) throw SLOW_PATH; // maybe too long: the writer counts
    return text;
  },
});

/*
 * Explicit writer: handles every accepted value and reports refusals with their JSON path, in the
 * canonical traversal order (members by code point).
 */

function refuse(code: CanonicalizationCode, path: string, message: string): never {
  throw new CanonicalizationError(code, path, message);
}

function writeString(s: string, path: string): string {
  if (!isWellFormed(s)) refuse('LONE_SURROGATE', path, 'string contains a lone surrogate');
  // For well-formed strings JSON.stringify escapes exactly the set of docs/spec/receipts.md §1.2 (checked by the vectors).
  return JSON.stringify(s);
}

function write(value: unknown, path: string, depth: number, stack: object[]): string {
  switch (typeof value) {
    case 'string':
      return writeString(value, path);
    case 'number':
      if (Number.isSafeInteger(value)) return value === 0 ? '0' : String(value);
      if (Number.isInteger(value)) {
        refuse('UNSAFE_NUMBER', path, 'integer number beyond 2^53-1 may have lost digits; pass a bigint');
      }
      return refuse('FLOAT', path, 'floats are not supported by EBCJ-1');
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint': {
      const text = value.toString();
      const digits = value < 0n ? text.length - 1 : text.length;
      if (digits > EBCJ1_MAX_INTEGER_DIGITS) {
        refuse('INTEGER_TOO_LONG', path, `integer has more than ${EBCJ1_MAX_INTEGER_DIGITS} digits`);
      }
      return text;
    }
    case 'object':
      if (value === null) return 'null';
      return writeContainer(value, path, depth + 1, stack);
    default:
      return refuse('UNSUPPORTED_TYPE', path, `unsupported type ${typeof value}`);
  }
}

function writeContainer(value: object, path: string, depth: number, stack: object[]): string {
  if (depth > EBCJ1_MAX_DEPTH) {
    // A cycle always ends up here; tell the two apart only on this rare path.
    if (stack.includes(value)) refuse('CYCLE', path, 'value contains a cycle');
    refuse('TOO_DEEP', path, `nesting deeper than ${EBCJ1_MAX_DEPTH} levels`);
  }
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = writeArray(value, path, depth, stack);
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      // @ewp/core's JsonFloat (`1.0`-style tokens; matched by name so any installed copy counts): still a float.
      if (name === 'JsonFloat') refuse('FLOAT', path, 'floats are not supported by EBCJ-1');
      if (value instanceof Map && [...value.keys()].some((k) => typeof k !== 'string')) {
        refuse('NON_STRING_KEY', path, 'mapping key is not a string');
      }
      refuse('UNSUPPORTED_TYPE', path, `unsupported type ${name}`);
    }
    out = writeObject(value as Record<string, unknown>, path, depth, stack);
  }
  stack.pop();
  return out;
}

function writeArray(array: unknown[], path: string, depth: number, stack: object[]): string {
  const n = array.length;
  if (n === 0) return '[]';
  let out = '[';
  for (let i = 0; i < n; i++) {
    const item = array[i];
    const at = indexPath(path, i);
    if (i > 0) out += ',';
    if (item === undefined) {
      if (!(i in array)) refuse('SPARSE_ARRAY', at, 'array has a hole');
      refuse('UNSUPPORTED_TYPE', at, 'unsupported type undefined');
    }
    out += write(item, at, depth, stack);
  }
  return `${out}]`;
}

function writeObject(obj: Record<string, unknown>, path: string, depth: number, stack: object[]): string {
  if (Object.getOwnPropertySymbols(obj).length > 0) refuse('NON_STRING_KEY', path, 'mapping key is not a string');
  const keys = sortedByCodePoint(Object.keys(obj));
  const n = keys.length;
  if (n === 0) return '{}';
  let out = '{';
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    const at = memberPath(path, key);
    if (!isWellFormed(key)) refuse('LONE_SURROGATE', at, 'mapping key contains a lone surrogate');
    const item = obj[key];
    if (i > 0) out += ',';
    out += JSON.stringify(key);
    out += ':';
    if (item === undefined) refuse('UNSUPPORTED_TYPE', at, 'unsupported type undefined');
    out += write(item, at, depth, stack);
  }
  return `${out}}`;
}
