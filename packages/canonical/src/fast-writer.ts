import { isPlainJsonString, jsonString } from '@ewp/core';
import { MemberOrderCache } from './member-order.js';
import { isWellFormed } from './well-formed.js';

/** Thrown by a fast writer for anything it will not decide itself; the explicit writer then does. */
export const SLOW_PATH = Symbol('canonical-slow-path');

/** What differs between the canonical schemes that share the fast writer. */
export interface FastWriterScheme {
  /** Member order: `code-point` (EBCJ-1) or `code-unit` (RFC 8785). */
  readonly order: 'code-point' | 'code-unit';
  /** Deepest container nesting; deeper values (and cycles) go to the explicit writer. */
  readonly maxDepth: number;
  /** Text of a number, or throw {@link SLOW_PATH}. */
  number(n: number): string;
  /** Text of a bigint, or throw {@link SLOW_PATH}. */
  bigint(n: bigint): string;
}

/** A well-formed string quoted as JSON writes it (for those, exactly the escapes both schemes require). */
function quoteString(s: string): string {
  if (!isWellFormed(s)) throw SLOW_PATH;
  return jsonString(s);
}

/** Every element a well-formed string: the native serializer writes the whole array canonically. */
function isStringArray(v: unknown[]): boolean {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'string' || !isWellFormed(x)) return false;
  }
  return true;
}

/** Every element a list of well-formed strings (a table of ids, as ledger events hold): one native write. */
function isStringTable(v: unknown[]): boolean {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!Array.isArray(x) || !isStringArray(x)) return false;
  }
  return true;
}

/**
 * A writer for the values both schemes accept without question: plain objects (members in canonical
 * order, memoized per object shape), dense arrays, well-formed strings, booleans, null, and what the
 * scheme's number and bigint functions take. Refusals, cycles, over-deep values and anything
 * unusual throw {@link SLOW_PATH}, so that one explicit writer per scheme can report the
 * problem with its JSON path; the fast writer never decides a refusal itself.
 */
export function createFastWriter(scheme: FastWriterScheme): (value: unknown) => string {
  const memberOrders = new MemberOrderCache(scheme.order);
  const { maxDepth } = scheme;

  function write(v: unknown, depth: number): string {
    switch (typeof v) {
      case 'string':
        return quoteString(v);
      case 'number':
        return scheme.number(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'bigint':
        return scheme.bigint(v);
      case 'object':
        if (v === null) return 'null';
        break;
      default:
        throw SLOW_PATH;
    }
    if (++depth > maxDepth) throw SLOW_PATH;
    if (Array.isArray(v)) {
      const n = v.length;
      if (n === 0) return '[]';
      if (typeof v[0] === 'string' && isStringArray(v)) return JSON.stringify(v);
      if (Array.isArray(v[0]) && depth < maxDepth && isStringTable(v)) return JSON.stringify(v);
      let out = `[${write(v[0], depth)}`;
      for (let i = 1; i < n; i++) out += `,${write(v[i], depth)}`;
      return `${out}]`;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw SLOW_PATH;
    // A symbol key is refused, not silently skipped (docs/spec/receipts.md §1.1): the costliest check here.
    if (Object.getOwnPropertySymbols(v).length > 0) throw SLOW_PATH;
    const keys = Object.keys(v);
    const n = keys.length;
    if (n === 0) return '{}';
    const order = memberOrders.get(keys);
    if (order.unusual) throw SLOW_PATH;
    const { sorted, prefixes, quotePrefixes } = order;
    const obj = v as Record<string, unknown>;
    let out = '';
    for (let i = 0; i < n; i++) {
      const x = obj[sorted[i] as string];
      // The commonest member, a plain string, in one concatenation: `,"key":"` + text + `"` (without any
      // surrogate it is well-formed too; one that holds some takes the general path, to the same text).
      if (typeof x === 'string' && isPlainJsonString(x)) out += quotePrefixes[i] + x + '"';
      else out += prefixes[i] + write(x, depth);
    }
    return `${out}}`;
  }

  return (value) => write(value, 0);
}
