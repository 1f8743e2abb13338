/**
 * Insert-only set of strings for the decoder's uniqueness (I1–I4) and SourceRef (I5) checks.
 *
 * On large views a `Set`/`Map` of record ids costs several random memory reads per operation
 * (a bucket, then the chained entries and each entry's key string, somewhere in a heap of
 * hundreds of MB). This table hashes the string once in JS and probes one small `Int32Array`:
 * each slot holds the key's index in its low bits and the high bits of its hash above them, so
 * a key string is read only when those match. Crafted colliding ids cannot make it quadratic:
 * once probing has cost more than a few steps per key the keys move into a `Map` and the table
 * continues on that.
 */

/** Up to this many keys a table is a plain array scanned linearly (no typed array). */
const SMALL = 8;

export class StringTable {
  /** Keys in insertion order; a key's index is its position here. */
  private readonly keys: string[];
  private count = 0;
  /** Slot = (hash & ~mask) | (index + 1); 0 marks an empty slot. Null while small. */
  private slots: Int32Array | null = null;
  private mask = 0;
  /** Probe steps still allowed before falling back to {@link map}. */
  private budget = 0;
  private map: Map<string, number> | null = null;

  /**
   * @param expected how many keys will be added (sizes the table once).
   * @param allowance probe steps allowed per slot before the `Map` fallback (tests set 0).
   */
  constructor(
    private readonly expected: number,
    private readonly allowance = 4,
  ) {
    this.keys = expected > SMALL ? new Array<string>(expected) : [];
  }

  /** The index of `key` when it was added before; otherwise adds it and returns -1. */
  addOrFind(key: string): number {
    const n = this.count;
    const slots = this.slots;
    if (slots !== null) {
      const mask = this.mask;
      const h = hashString(key);
      const high = h & ~mask;
      let at = h & mask;
      for (;;) {
        const slot = slots[at]!;
        if (slot === 0) break;
        if ((slot & ~mask) === high && this.keys[(slot & mask) - 1] === key) return (slot & mask) - 1;
        at = (at + 1) & mask;
        this.budget--;
      }
      if (this.budget >= 0 && n < (mask + 1) >>> 1) {
        slots[at] = high | (n + 1);
        this.keys[n] = key;
        this.count = n + 1;
        return -1;
      }
      // Table half full (more keys than announced) or probing too long: rebuild, then insert.
      this.rebuild(n + 1);
      return this.addOrFind(key);
    }
    if (this.map !== null) {
      const prior = this.map.get(key);
      if (prior !== undefined) return prior;
      this.map.set(key, n);
      this.keys[n] = key;
      this.count = n + 1;
      return -1;
    }
    for (let i = 0; i < n; i++) if (this.keys[i] === key) return i;
    if (n < SMALL) {
      this.keys[n] = key;
      this.count = n + 1;
      return -1;
    }
    this.rebuild(Math.max(this.expected, n + 1));
    return this.addOrFind(key);
  }

  /**
   * Hash slots for at least `size` keys at load factor <= 1/2, or the `Map` fallback when the
   * probing budget ran out.
   */
  private rebuild(size: number): void {
    const keys = this.keys;
    const n = this.count;
    if (this.slots !== null && this.budget < 0) {
      const map = new Map<string, number>();
      for (let i = 0; i < n; i++) map.set(keys[i]!, i);
      this.map = map;
      this.slots = null;
      return;
    }
    let cap = 16;
    while (cap < size * 2) cap *= 2;
    const slots = new Int32Array(cap);
    const mask = cap - 1;
    let budget = this.allowance === 0 ? 0 : this.allowance * cap + 1024;
    for (let i = 0; i < n; i++) {
      const h = hashString(keys[i]!);
      let at = h & mask;
      while (slots[at] !== 0) {
        at = (at + 1) & mask;
        budget--;
      }
      slots[at] = (h & ~mask) | (i + 1);
    }
    this.slots = slots;
    this.mask = mask;
    this.budget = budget;
    if (budget < 0) this.rebuild(size);
  }
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
