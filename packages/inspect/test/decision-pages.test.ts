/**
 * The inspector's lists are bounded pages: `/api/decisions?limit=1000` over a real SQLite ledger
 * whose decisions carry long action ids stops at the page's byte bound and names the next page's
 * `after` in `next_cursor`; a decision larger than a page comes back shortened and flagged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { MAX_PAGE_BYTES } from '@ewp/tools';
import { appendDecisions } from '@ewp/tools/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DecisionPage, type Inspector, type PropositionPage, serveInspector } from '../src/index.js';
import { quickstartViews } from './ledgers.js';

const NOW = '2026-09-23T12:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'ewp-inspect-pages-'));
let store: SqliteEvidenceStore;
let inspector: Inspector;
let ids: string[];
let hugeId: string;

beforeAll(async () => {
  store = new SqliteEvidenceStore(join(dir, 'l.sqlite'));
  ids = await appendDecisions(store, { count: 900, proposition: 'P-gone', evaluatedAt: NOW, actionIdChars: 600 });
  [hugeId] = (await appendDecisions(store, { count: 1, proposition: 'P-gone', evaluatedAt: NOW, actionIdChars: 300_000 })) as [string];
  ids.push(hugeId);
  // Propositions whose assertion texts are long: a page of them stops at the byte bound.
  const template = quickstartViews()[0] as { proposition_id: string; view_id?: string; assertions: { text: string }[] };
  for (let i = 0; i < 40; i++) {
    const { view_id: _id, ...view } = structuredClone(template);
    view.proposition_id = `P-long-${i}`;
    view.assertions = view.assertions.map((a) => ({ ...a, text: `${a.text} ${i} ${'z'.repeat(i === 5 ? 60_000 : 6_000)}` }));
    await store.put(view);
  }
  inspector = await serveInspector({ store, port: 0, clock: () => new Date(NOW), label: 'pages' });
}, 60_000);

afterAll(async () => {
  await inspector?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get<T>(path: string): Promise<{ bytes: number; body: T }> {
  const res = await fetch(new URL(path, inspector.url));
  const text = await res.text();
  expect(res.status).toBe(200);
  return { bytes: Buffer.byteLength(text), body: JSON.parse(text) as T };
}

describe('bounded inspector pages', () => {
  it('/api/decisions?limit=1000 pages by next_cursor through every decision, each reply within the byte bound', async () => {
    const seen: string[] = [];
    let after: number | null = null;
    let pages = 0;
    for (;;) {
      const { bytes, body }: { bytes: number; body: DecisionPage } = await get(`/api/decisions?limit=1000${after === null ? '' : `&after=${after}`}`);
      expect(bytes).toBeLessThanOrEqual(MAX_PAGE_BYTES + 4096);
      expect(body.items.length).toBeGreaterThan(0);
      for (const d of body.items) {
        seen.push(d.decision_id);
        expect((d as { truncated?: boolean }).truncated).toBe(d.decision_id === hugeId ? true : undefined);
      }
      pages += 1;
      expect(body.has_more).toBe(body.next_cursor !== null);
      if (body.next_cursor === null) break;
      after = body.next_cursor;
    }
    expect(seen).toEqual(ids);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('/api/propositions?limit=500 pages by next_cursor (the next offset) within the byte bound; a row too large is shortened and flagged', async () => {
    const seen: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const { bytes, body }: { bytes: number; body: PropositionPage } = await get(`/api/propositions?limit=500&offset=${offset}`);
      expect(bytes).toBeLessThanOrEqual(MAX_PAGE_BYTES + 4096);
      expect(body.items.length).toBeGreaterThan(0);
      for (const p of body.items) {
        seen.push(p.proposition_id);
        expect((p as { truncated?: boolean }).truncated).toBe(p.proposition_id === 'P-long-5' ? true : undefined);
      }
      pages += 1;
      expect(body.has_more).toBe(body.next_cursor !== null);
      if (body.next_cursor === null) break;
      expect(body.next_cursor).toBe(offset + body.items.length);
      offset = body.next_cursor;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `P-long-${i}`).sort());
  });
});
