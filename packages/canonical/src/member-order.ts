import { sortedByCodePoint } from '@ewp/core';
import { isWellFormed } from './well-formed.js';

/**
 * The canonical member order of one object shape (one list of keys in enumeration order), with
 * each member's ready-made `{"key":` / `,"key":` prefix. Records of the same shape share one entry,
 * so sorting and key escaping are paid once per shape instead of once per object.
 */
export interface MemberOrder {
  /** Keys in the order `Object.keys` gave them: the cache key. */
  readonly keys: readonly string[];
  /** Keys in canonical order. */
  readonly sorted: readonly string[];
  /** `{"k":` for the first sorted key, `,"k":` for the others. */
  readonly prefixes: readonly string[];
  /** The prefixes with the opening quote of a string value: `{"k":"`, `,"k":"`. */
  readonly quotePrefixes: readonly string[];
  /** A key holds a lone surrogate: refused, with its path, by the explicit writer. */
  readonly unusual: boolean;
}

/** Bound on cached keys, so a stream of ever-new shapes cannot grow the cache without limit. */
const CACHED_KEYS_LIMIT = 1 << 16;
/** Shapes kept per first key (optional members make a few variants of one record type). */
const VARIANTS_PER_FIRST_KEY = 32;

/**
 * Memoizes canonical member orders by shape. Lookup is by first key, then an element-wise compare
 * of the key list (property keys are internalized strings, so each compare is a pointer check).
 */
export class MemberOrderCache {
  readonly #byFirstKey = new Map<string, MemberOrder[]>();
  #cachedKeys = 0;

  /** @param order `code-point` (EBCJ-1) or `code-unit` (RFC 8785, JavaScript's default sort). */
  constructor(private readonly order: 'code-point' | 'code-unit') {}

  /** The member order for a non-empty key list from `Object.keys`. */
  get(keys: string[]): MemberOrder {
    const n = keys.length;
    const first = keys[0] as string;
    let variants = this.#byFirstKey.get(first);
    if (variants !== undefined) {
      search: for (let v = 0; v < variants.length; v++) {
        const candidate = variants[v] as MemberOrder;
        const known = candidate.keys;
        if (known.length !== n) continue;
        for (let i = 1; i < n; i++) if (known[i] !== keys[i]) continue search;
        return candidate;
      }
    }
    const entry = this.#build(keys);
    if (this.#cachedKeys + n > CACHED_KEYS_LIMIT) {
      this.#byFirstKey.clear();
      this.#cachedKeys = 0;
      variants = undefined;
    }
    if (n <= CACHED_KEYS_LIMIT) {
      if (variants === undefined) {
        variants = [];
        this.#byFirstKey.set(first, variants);
      }
      if (variants.length >= VARIANTS_PER_FIRST_KEY) variants.length = 0;
      variants.push(entry);
      this.#cachedKeys += n;
    }
    return entry;
  }

  #build(keys: string[]): MemberOrder {
    const sorted = this.order === 'code-point' ? sortedByCodePoint(keys) : keys.slice().sort();
    let unusual = false;
    const prefixes = sorted.map((key, i) => {
      if (!isWellFormed(key)) unusual = true;
      return (i === 0 ? '{' : ',') + JSON.stringify(key) + ':';
    });
    const quotePrefixes = prefixes.map((prefix) => `${prefix}"`);
    return { keys: keys.slice(), sorted, prefixes, quotePrefixes, unusual };
  }
}
