import { describe, expect, it } from 'vitest';
import { boundItem, boundPage, jsonBytes, MAX_ITEM_BYTES, MAX_PAGE_BYTES } from './reply-page.js';

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
