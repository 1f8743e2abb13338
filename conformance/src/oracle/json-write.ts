/**
 * Writes the oracle's JSON values back to text, keeping what matters to a Python reader:
 * integers as exact digits, floats in Python repr (always a float token), non-finite floats as
 * `NaN` / `Infinity` / `-Infinity`, lone surrogates as `\uXXXX` escapes.
 */
import type { JValue } from './json-value.js';
import { pythonFloatRepr } from './python-text.js';

/** A path into a JSON value: object keys and array indexes. */
export type JPath = ReadonlyArray<string | number>;

function floatToken(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  return pythonFloatRepr(x);
}

/** Marks the value at a path for deletion (its key or array element is left out). */
export const DELETE = Symbol('delete');

/**
 * Writes `value` as JSON text; when `replace` is given, the value at `replace.path` is written as
 * the raw token `replace.token` instead (used by the mutation fuzz, e.g. the token `1e400`), or
 * left out entirely when the token is {@link DELETE}.
 */
export function writeJsonText(value: JValue, replace?: { readonly path: JPath; readonly token: string | typeof DELETE }): string {
  const target = replace?.path;
  const token = replace?.token;
  const deleting = (onPath: boolean, depth: number) => token === DELETE && onPath && target !== undefined && depth + 1 === target.length;
  const walk = (v: JValue, depth: number, onPath: boolean): string => {
    if (onPath && target !== undefined && depth === target.length) return token === DELETE ? '' : (token as string);
    if (v === null) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'string') return JSON.stringify(v);
    const next = onPath && target !== undefined ? target[depth] : undefined;
    if (Array.isArray(v)) {
      const items = v.filter((_, i) => !(deleting(onPath, depth) && next === i));
      const shift = (i: number) => (deleting(onPath, depth) && typeof next === 'number' && i >= next ? i + 1 : i);
      return `[${items.map((x, i) => walk(x, depth + 1, next === shift(i))).join(', ')}]`;
    }
    if (v.kind === 'int') return v.value.toString();
    if (v.kind === 'float') return floatToken(v.value);
    const parts: string[] = [];
    for (const [k, x] of v.entries) {
      if (deleting(onPath, depth) && next === k) continue;
      parts.push(`${JSON.stringify(k)}: ${walk(x, depth + 1, next === k)}`);
    }
    return `{${parts.join(', ')}}`;
  };
  return walk(value, 0, true);
}

/** Every key and array index at every depth (not the root), in document order. */
export function allPaths(value: JValue, prefix: JPath = []): JPath[] {
  const out: JPath[] = [];
  if (Array.isArray(value)) {
    value.forEach((x, i) => {
      const p = [...prefix, i];
      out.push(p, ...allPaths(x, p));
    });
  } else if (value !== null && typeof value === 'object' && value.kind === 'object') {
    for (const [k, x] of value.entries) {
      const p = [...prefix, k];
      out.push(p, ...allPaths(x, p));
    }
  }
  return out;
}
