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

  it('/api/propositions carries next_cursor (the next offset), null on the last page', async () => {
    const { body } = await get<PropositionPage>('/api/propositions?limit=5');
    expect(body.has_more).toBe(false);
    expect(body.next_cursor).toBeNull();
  });
});
