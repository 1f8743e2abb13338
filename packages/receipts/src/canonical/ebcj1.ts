import { type CanonicalizationCode, CanonicalizationError, indexPath, memberPath } from './canonicalization-error.js';
import { compareCodePoints, sortByCodePoint } from './code-point-order.js';

/** The canonicalization version string bound into every receipt. */
export const EBCJ1_VERSION = 'EBCJ-1' as const;

/**
 * Deepest container nesting EBCJ-1 accepts here. The reference manages about 997 levels (Python's
 * recursion limit); SPEC §1.1 asks for at least 500. Deeper values are refused with `TOO_DEEP`.
 */
export const EBCJ1_MAX_DEPTH = 990;

/** CPython's int/str conversion limit: the reference cannot print longer integers (SPEC §1.1). */
export const EBCJ1_MAX_INTEGER_DIGITS = 4300;

// Lone surrogates only: with the `u` flag a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const HIGH_UNIT = /[\ud800-\uffff]/;
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;
const utf8 = new TextEncoder();

type WellFormedString = string & { isWellFormed?: () => boolean };
/** `String.prototype.isWellFormed` (Node 20+, ES2024) with a regex fallback for older engines. */
const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as WellFormedString).isWellFormed === 'function'
    ? (s) => (s as WellFormedString).isWellFormed!()
    : (s) => !LONE_SURROGATE.test(s);

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

/** Per-key facts cached across calls: keys repeat across records of the same shape. */
interface KeyInfo {
  /** The key quoted and escaped, or null when it holds a lone surrogate. */
  quoted: string | null;
  /** Holds a unit where UTF-16 and code point order can disagree. */
  high: boolean;
  /** JS enumerates it before other keys (`"0"`, `"42"`) or treats it specially (`__proto__`). */
  special: boolean;
}
const keyCache = new Map<string, KeyInfo>();
const KEY_CACHE_LIMIT = 50_000;

function keyInfo(key: string): KeyInfo {
  let info = keyCache.get(key);
  if (info === undefined) {
    info = {
      quoted: isWellFormed(key) ? JSON.stringify(key) : null,
      high: HIGH_UNIT.test(key),
      special: key === '__proto__' || (INTEGER_LIKE.test(key) && Number(key) < 2 ** 32 - 1),
    };
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    keyCache.set(key, info);
  }
  return info;
}

/**
 * The EBCJ-1 canonical text of a value (SPEC §1.2): no whitespace, members sorted by code point,
 * integers in plain decimal, strings with exactly JSON's short escapes and lowercase `\u00xx`.
 *
 * Accepted values: `null`, booleans, safe-integer numbers (`-0` is `0`), bigints, well-formed strings,
 * dense arrays and plain objects (prototype `Object.prototype` or `null`) of those.
 * @throws {CanonicalizationError} on anything else, with the JSON path of the first problem.
 */
export function ebcj1String(value: unknown): string {
  let prepared: unknown;
  try {
    prepared = prepare(value, 0);
  } catch (error) {
    if (error !== SLOW_PATH && !(error instanceof CanonicalizationError)) throw error;
    // Values JSON.stringify cannot write in canonical order (bigints, astral or integer-like keys
    // that need reordering), and every refusal (to report it with its path): the explicit writer.
    return write(value, '$', 0, []);
  }
  return JSON.stringify(prepared);
}

/** The EBCJ-1 canonical bytes (UTF-8, no BOM) of a value. @throws {CanonicalizationError} */
export function ebcj1Bytes(value: unknown): Uint8Array {
  return encodeUtf8(ebcj1String(value));
}

/*
 * Fast path. For a validated value whose objects enumerate their keys in code point order,
 * JSON.stringify writes exactly the EBCJ-1 text (same escapes for well-formed strings, integers
 * in plain decimal, -0 as 0, no whitespace). `prepare` validates everything and returns the value
 * itself, or a copy in which out-of-order objects are rebuilt with sorted keys; it gives up (throws
 * SLOW_PATH) where JSON.stringify would differ.
 */
const SLOW_PATH = Symbol('ebcj1-slow-path');
const fail = (code: CanonicalizationCode, message: string): never => {
  throw new CanonicalizationError(code, '$', message);
};

function prepare(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      if (!isWellFormed(v)) fail('LONE_SURROGATE', 'string contains a lone surrogate');
      return v;
    case 'number':
      if (!Number.isSafeInteger(v)) fail('FLOAT', 'not a safe integer');
      return v;
    case 'boolean':
      return v;
    case 'object':
      if (v === null) return v;
      break;
    default:
      throw SLOW_PATH; // bigint (JSON.stringify cannot write it) or an unsupported type
  }
  // Too deep, or a cycle (which always ends up too deep): the explicit writer tells which.
  if (++depth > EBCJ1_MAX_DEPTH) throw SLOW_PATH;
  let out: unknown;
  if (Array.isArray(v)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === undefined) throw SLOW_PATH;
      const y = prepare(x, depth);
      if (y !== x) {
        copy ??= v.slice();
        copy[i] = y;
      }
    }
    out = copy ?? v;
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw SLOW_PATH;
    if (Object.getOwnPropertySymbols(v).length > 0) throw SLOW_PATH;
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    let sorted = true;
    let high = false;
    let special = false;
    let prev: string | undefined;
    for (const k of keys) {
      const info = keyInfo(k);
      if (info.quoted === null) throw SLOW_PATH;
      if (info.high) high = true;
      if (info.special) special = true;
      if (prev !== undefined && (high ? compareCodePoints(prev, k) > 0 : prev > k)) sorted = false;
      prev = k;
    }
    // A copy would enumerate integer-like keys first, and assigning `__proto__` sets the prototype.
    if (special && !sorted) throw SLOW_PATH;
    if (!sorted) {
      if (high) sortByCodePoint(keys);
      else keys.sort();
      const copy: Record<string, unknown> = {};
      for (const k of keys) {
        const x = obj[k];
        if (x === undefined) throw SLOW_PATH;
        copy[k] = prepare(x, depth);
      }
      out = copy;
    } else {
      let copy: Record<string, unknown> | null = null;
      for (const k of keys) {
        const x = obj[k];
        if (x === undefined) throw SLOW_PATH;
        const y = prepare(x, depth);
        if (y !== x) {
          if (special) throw SLOW_PATH;
          copy ??= { ...obj };
          copy[k] = y;
        }
      }
      out = copy ?? obj;
    }
  }
  return out;
}

/*
 * Explicit writer: handles every accepted value and reports refusals with their JSON path, in the
 * canonical traversal order (members by code point).
 */

function refuse(code: CanonicalizationCode, path: string, message: string): never {
  throw new CanonicalizationError(code, path, message);
}

function writeString(s: string, path: string): string {
  if (!isWellFormed(s)) refuse('LONE_SURROGATE', path, 'string contains a lone surrogate');
  // For well-formed strings JSON.stringify escapes exactly the set of SPEC §1.2 (checked by the vectors).
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
      // Readers mark `1.0`-style tokens as JsonFloat: still a float to EBCJ-1.
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
  const keys = sortByCodePoint(Object.keys(obj));
  const n = keys.length;
  if (n === 0) return '{}';
  let out = '{';
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    const quoted = keyInfo(key).quoted;
    const item = obj[key];
    const at = memberPath(path, key);
    if (quoted === null) refuse('LONE_SURROGATE', at, 'mapping key contains a lone surrogate');
    if (i > 0) out += ',';
    out += quoted;
    out += ':';
    if (item === undefined) refuse('UNSUPPORTED_TYPE', at, 'unsupported type undefined');
    out += write(item, at, depth, stack);
  }
  return `${out}}`;
}
