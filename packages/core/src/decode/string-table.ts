/**
 * First occurrences of strings, for the decoder's uniqueness (I1–I4) and SourceRef (I5) checks.
 *
 * On large views a `Set`/`Map` of record ids costs several random memory reads per operation
 * (a bucket, then the chained entries and each entry's key string, somewhere in a heap of
 * hundreds of MB). Here every key is hashed first in one sequential pass, then a tight loop
 * probes one small `Int32Array` (open addressing, load factor <= 1/2): each slot holds the
 * key's index in its low bits and the high bits of its hash above them, so a key string is read
 * only when those match, and the loop is short enough for the processor to overlap its cache
 * misses. Crafted colliding keys cannot make it quadratic: once probing has cost more than a
 * few steps per slot the whole answer is computed again with a `Map`.
 */

/** Up to this many keys the answer comes from a linear scan. */
const TINY = 8;
/** Below this many keys a `Map` is cheaper than allocating typed arrays. */
const SMALL = 256;

/**
 * `out[i]` = the index of the first key equal to `keys[i]` (so `out[i] === i` when `keys[i]`
 * did not occur before).
 *
 * @param allowance probe steps allowed per slot before the `Map` fallback (tests set 0).
 */
export function firstOccurrences(keys: readonly string[], allowance = 4): ArrayLike<number> {
  const n = keys.length;
  if (n <= TINY) {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      let j = 0;
      while (keys[j] !== keys[i]) j++;
      out.push(j);
    }
    return out;
  }
  if (n < SMALL) return firstOccurrencesByMap(keys);
  const out = new Int32Array(n);
  const hashes = new Int32Array(n);
  for (let i = 0; i < n; i++) hashes[i] = hashString(keys[i]!);
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  const mask = cap - 1;
  const slots = new Int32Array(cap);
  let budget = allowance === 0 ? 0 : allowance * cap + 1024;
  for (let i = 0; i < n; i++) {
    const h = hashes[i]!;
    const high = h & ~mask;
    let at = h & mask;
    for (;;) {
      const slot = slots[at]!;
      if (slot === 0) {
        slots[at] = high | (i + 1);
        out[i] = i;
        break;
      }
      if ((slot & ~mask) === high && keys[(slot & mask) - 1] === keys[i]) {
        out[i] = (slot & mask) - 1;
        break;
      }
      at = (at + 1) & mask;
      if (--budget < 0) return firstOccurrencesByMap(keys);
    }
  }
  return out;
}

function firstOccurrencesByMap(keys: readonly string[]): number[] {
  const out: number[] = new Array(keys.length);
  const seen = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) {
    const prior = seen.get(keys[i]!);
    if (prior === undefined) {
      seen.set(keys[i]!, i);
      out[i] = i;
    } else out[i] = prior;
  }
  return out;
}

/** FNV-1a over UTF-16 code units, with a final avalanche so that the low bits are usable. */
function hashString(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}
