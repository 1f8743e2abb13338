/**
 * Bounded list replies. Every list a server answers (the decision listings, the proposition lists,
 * recall rows) is cut into pages of at most a number of items and a number of serialized bytes, so
 * no reply is larger than a bound whatever the ledger holds: a page stops early when the next item
 * would carry it past the byte bound, and the caller answers a cursor to continue from. One record
 * larger than the per-item bound is shortened (long strings and arrays cut) or, if still too large,
 * replaced by its summary, with `truncated: true` either way: it is never silently dropped.
 */

/** Largest serialized page (bytes of its items' JSON) a list reply carries by default. */
export const MAX_PAGE_BYTES = 64 * 1024;
/** Largest serialized item within a page by default; a larger one is shortened. */
export const MAX_ITEM_BYTES = 16 * 1024;
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

/** What {@link readPage} reads and how it cuts the page. */
export interface PageRead<R, T> extends PageBounds {
  /** Reads up to `count` records after the cursor `after` (none: from the start), in cursor order. */
  read: (after: number | undefined, count: number) => Promise<readonly R[]>;
  /** The cursor of a record (e.g. its chain index): the next page starts after the page's last. */
  cursorOf: (record: R) => number;
  /** The page item of a record. */
  item: (record: R) => T | Promise<T>;
  /** What an item too large even when cut is answered as (see {@link boundItem}). */
  summary: (item: T) => Record<string, unknown>;
  /** The cursor to start after (none: from the start). */
  after?: number | undefined;
  /** Most items in the page. */
  limit: number;
}

/** A page read by {@link readPage}. */
export interface CursorPage<T> {
  items: (T | ShortenedItem)[];
  /** The `after` of the next page; null when the page reached the end. */
  next_cursor: number | null;
  /** How many items were shortened or summarised. */
  truncated: number;
}

/** Records read per step at first; each further step reads twice as many, up to the limit. */
const FIRST_READ = 16;

/**
 * A page of at most `limit` items and `maxBytes` serialized bytes, read from the store a few
 * records at a time, so a request holds about one page's worth of records, not `limit` of them
 * (the byte bound usually ends a page long before the limit when records are large).
 */
export async function readPage<R, T>(options: PageRead<R, T>): Promise<CursorPage<T>> {
  const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES;
  const maxItemBytes = Math.min(options.maxItemBytes ?? MAX_ITEM_BYTES, maxBytes);
  const items: (T | ShortenedItem)[] = [];
  let total = 0;
  let truncated = 0;
  let after = options.after;
  let step = FIRST_READ;
  for (;;) {
    // One record more than the page still needs tells whether another page follows.
    const wanted = Math.min(step, options.limit - items.length + 1);
    const records = await options.read(after, wanted);
    for (const record of records) {
      if (items.length === options.limit) return { items, next_cursor: after ?? null, truncated };
      const { item, bytes, shortened } = boundItem(await options.item(record), maxItemBytes, options.summary);
      if (items.length > 0 && total + bytes > maxBytes) return { items, next_cursor: after ?? null, truncated };
      items.push(item);
      total += bytes + 1;
      if (shortened) truncated += 1;
      after = options.cursorOf(record);
    }
    if (records.length < wanted) return { items, next_cursor: null, truncated };
    step = Math.min(step * 2, 256);
  }
}
