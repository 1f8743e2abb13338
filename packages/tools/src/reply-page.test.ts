import { describe, expect, it } from 'vitest';
import { boundItem, boundPage, jsonBytes, MAX_ITEM_BYTES, MAX_PAGE_BYTES, readPage } from './reply-page.js';

const summary = (r: { id: number }) => ({ id: r.id });

describe('boundPage', () => {
  it('stops a page at the byte bound and pages through every item exactly once', () => {
    const items = Array.from({ length: 500 }, (_, id) => ({ id, text: 'x'.repeat(1000 + (id % 7) * 300) }));
    const seen: number[] = [];
    let from = 0;
    let pages = 0;
    while (from < items.length) {
      const page = boundPage(items.slice(from), summary, { maxBytes: 20_000 });
      expect(page.taken).toBeGreaterThan(0);
      expect(jsonBytes(page.items)).toBeLessThanOrEqual(20_000);
      expect(page.truncated).toBe(0);
      for (const it of page.items) seen.push((it as { id: number }).id);
      from += page.taken;
      pages += 1;
    }
    expect(seen).toEqual(items.map((i) => i.id));
    expect(pages).toBeGreaterThan(20);
  });

  it('keeps a record larger than the item bound, shortened and flagged, never drops it', () => {
    const items = [
      { id: 1, text: 'a' },
      { id: 2, text: 'b'.repeat(5 * MAX_ITEM_BYTES), tags: Array.from({ length: 500 }, (_, i) => `t${i}`) },
      { id: 3, text: 'c' },
    ];
    const page = boundPage(items, summary);
    expect(page.taken).toBe(3);
    expect(page.truncated).toBe(1);
    const big = page.items[1] as { id: number; text: string; tags: string[]; truncated: boolean };
    expect(big).toMatchObject({ id: 2, truncated: true });
    expect(big.text.startsWith('bbb')).toBe(true);
    expect(big.text.length).toBeLessThan(2000);
    expect(big.tags.length).toBeLessThan(500);
    expect(jsonBytes(big)).toBeLessThanOrEqual(MAX_ITEM_BYTES);
    expect(page.items[0]).toEqual(items[0]);
    expect(page.items[2]).toEqual(items[2]);
  });

  it('answers the summary, with the original size, when cutting strings and arrays is not enough', () => {
    const wide: Record<string, unknown> = { id: 9 };
    for (let i = 0; i < 20_000; i++) wide[`k${i}`] = i;
    const bounded = boundItem(wide as { id: number }, MAX_ITEM_BYTES, summary);
    expect(bounded.shortened).toBe(true);
    expect(bounded.item).toEqual({ id: 9, truncated: true, bytes: jsonBytes(wide) });
  });

  it('always takes the first item, so a cursor advances even when one item fills the page', () => {
    const page = boundPage(
      [
        { id: 1, text: 'z'.repeat(MAX_PAGE_BYTES * 2) },
        { id: 2, text: '' },
      ],
      summary,
    );
    expect(page.taken).toBe(2);
    const one = boundPage(
      [
        { id: 1, text: 'z'.repeat(900) },
        { id: 2, text: 'z'.repeat(900) },
      ],
      summary,
      { maxBytes: 1000 },
    );
    expect(one.taken).toBe(1);
    expect(one.truncated).toBe(0);
  });
});

describe('readPage', () => {
  // Records with gaps in their cursors (as chain indexes of one kind have), read in steps.
  const records = Array.from({ length: 700 }, (_, i) => ({ index: 3 * i + 1, text: 'r'.repeat(200 + (i % 5) * 100) }));
  const reads: number[] = [];
  const read = async (after: number | undefined, count: number) => {
    reads.push(count);
    return records.filter((r) => after === undefined || r.index > after).slice(0, count);
  };
  const page = (after: number | undefined, limit: number, maxBytes?: number) =>
    readPage({
      read,
      cursorOf: (r) => r.index,
      item: (r) => r,
      summary: (r) => ({ index: r.index }),
      after,
      limit,
      ...(maxBytes === undefined ? {} : { maxBytes }),
    });

  it('pages with next_cursor through every record exactly once, cut by the limit or the byte bound', async () => {
    for (const [limit, maxBytes] of [
      [50, undefined],
      [1000, 20_000],
      [7, 1_000_000],
    ] as const) {
      const seen: number[] = [];
      let after: number | undefined;
      for (;;) {
        const p = await page(after, limit, maxBytes);
        expect(p.items.length).toBeGreaterThan(0);
        expect(p.items.length).toBeLessThanOrEqual(limit);
        expect(jsonBytes(p.items)).toBeLessThanOrEqual(maxBytes ?? MAX_PAGE_BYTES);
        seen.push(...p.items.map((r) => (r as { index: number }).index));
        if (p.next_cursor === null) break;
        expect(p.next_cursor).toBe(seen[seen.length - 1]);
        after = p.next_cursor;
      }
      expect(seen).toEqual(records.map((r) => r.index));
    }
  });

  it('reads about what the page holds, not the whole limit, when the byte bound ends it', async () => {
    reads.length = 0;
    const p = await page(undefined, 1000, 10_000);
    const read = reads.reduce((a, b) => a + b, 0);
    expect(p.items.length).toBeLessThan(40);
    expect(read).toBeLessThan(4 * p.items.length);
    expect(p.next_cursor).toBe((p.items[p.items.length - 1] as { index: number }).index);
  });

  it('answers next_cursor null exactly when the page ends at the last record', async () => {
    expect((await page(records[698]?.index, 5)).next_cursor).toBeNull();
    expect((await page(records[697]?.index, 1)).next_cursor).toBe(records[698]?.index);
    expect(await page(records[699]?.index, 5)).toEqual({ items: [], next_cursor: null, truncated: 0 });
  });
});
