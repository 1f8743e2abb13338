/**
 * Bounded list replies. Every list a server answers (the decision listings, the proposition lists,
 * recall rows) is cut into pages of at most a number of items and a number of serialized bytes, so
 * no reply is larger than a bound whatever the ledger holds: a page stops early when the next item
 * would carry it past the byte bound, and the caller answers a cursor to continue from. One record
 * larger than the per-item bound is shortened (long strings and arrays cut) or, if still too large,
 * replaced by its summary, with `truncated: true` either way: it is never silently dropped.
 */

/** Largest serialized page (bytes of its items' JSON) a list reply carries by default. */
export const MAX_PAGE_BYTES = 256 * 1024;
/** Largest serialized item within a page by default; a larger one is shortened. */
export const MAX_ITEM_BYTES = 32 * 1024;
/** Characters a shortened record keeps of each string. */
const KEPT_STRING_CHARS = 1024;
/** Elements a shortened record keeps of each array. */
const KEPT_ARRAY_ITEMS = 64;
/** Characters a summary keeps of each string (a summary must fit the item bound whatever its source). */
const SUMMARY_STRING_CHARS = 256;

/** The bounds of {@link boundPage}. */
export interface PageBounds {
  /** Largest total of the page's serialized items (default {@link MAX_PAGE_BYTES}). */
  maxBytes?: number;
  /** Largest serialized item (default {@link MAX_ITEM_BYTES}). */
  maxItemBytes?: number;
}

/** A page cut by {@link boundPage}. */
export interface BoundedPage<T> {
  /** The items that fit, in order; a shortened one carries `truncated: true`. */
  items: (T | ShortenedItem)[];
  /** How many of the given items the page holds (the rest were left for the next page). */
  taken: number;
  /** How many of them were shortened or summarised. */
  truncated: number;
}

/** An item shortened to fit the bound: its own fields cut, or its summary, flagged. */
export type ShortenedItem = Record<string, unknown> & { truncated: true };

/** Serialized size of a JSON value in UTF-8 bytes. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** A copy of `value` with every string past `chars` characters and every array past `items` elements cut. */
function cut(value: unknown, chars: number, items: number): unknown {
  if (typeof value === 'string') return value.length > chars ? `${value.slice(0, chars)}…` : value;
  if (Array.isArray(value)) return value.slice(0, items).map((v) => cut(v, chars, items));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cut(v, chars, items);
    return out;
  }
  return value;
}

/**
 * `item` within `maxItemBytes`: itself when it fits; else its strings and arrays cut; else its
 * `summary` (cut harder) with its original size in `bytes`. Shortened forms carry `truncated: true`.
 */
export function boundItem<T>(
  item: T,
  maxItemBytes: number,
  summary: (item: T) => Record<string, unknown>,
): { item: T | ShortenedItem; bytes: number; shortened: boolean } {
  const bytes = jsonBytes(item);
  if (bytes <= maxItemBytes) return { item, bytes, shortened: false };
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
    const shortened = { ...(cut(item, KEPT_STRING_CHARS, KEPT_ARRAY_ITEMS) as Record<string, unknown>), truncated: true as const };
    const size = jsonBytes(shortened);
    if (size <= maxItemBytes) return { item: shortened, bytes: size, shortened: true };
  }
  const summarised = { ...(cut(summary(item), SUMMARY_STRING_CHARS, 8) as Record<string, unknown>), truncated: true as const, bytes };
  return { item: summarised, bytes: jsonBytes(summarised), shortened: true };
}

/**
 * The longest prefix of `items` whose serialized items total at most `maxBytes`, each item within
 * `maxItemBytes` ({@link boundItem}). The first item is always taken (shortened if it must be), so
 * paging through a list always advances.
 * @param summary what an item too large even when cut is answered as: the fields that identify it
 */
export function boundPage<T>(items: readonly T[], summary: (item: T) => Record<string, unknown>, bounds: PageBounds = {}): BoundedPage<T> {
  const maxBytes = bounds.maxBytes ?? MAX_PAGE_BYTES;
  const maxItemBytes = Math.min(bounds.maxItemBytes ?? MAX_ITEM_BYTES, maxBytes);
  const page: (T | ShortenedItem)[] = [];
  let total = 0;
  let truncated = 0;
  for (const raw of items) {
    const { item, bytes, shortened } = boundItem(raw, maxItemBytes, summary);
    if (page.length > 0 && total + bytes > maxBytes) break;
    page.push(item);
    total += bytes + 1;
    if (shortened) truncated += 1;
  }
  return { items: page, taken: page.length, truncated };
}
