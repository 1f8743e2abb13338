/** The propositions page reads warrants through the store's warrant table: a commit on the ledger, from another handle, shows on the next page. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_V2, warrantNow } from '@ewp/core';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { describe, expect, it } from 'vitest';
import { serveInspector } from '../src/index.js';
import { quickstartViews } from './ledgers.js';

type Page = { items: { proposition_id: string; latest_view_id: string; warrant: Record<string, string> }[] };

describe('the propositions page and the warrant table', () => {
  it('answers the axes warrantNow gives at T, and sees another handle’s commit on the next page', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-table-')), 'ewp.sqlite');
    const writer = new SqliteEvidenceStore(file);
    for (const view of quickstartViews()) await writer.put(view);
    const store = new SqliteEvidenceStore(file);
    const inspector = await serveInspector({ store, port: 0, clock: () => new Date('2026-09-23T12:00:00Z') });
    try {
      const page = async (at: string) => (await (await fetch(`${inspector.url}api/propositions?at=${at}`)).json()) as Page;
      const expectAxes = async (p: Page, at: string) => {
        for (const row of p.items) {
          const view = await writer.get(row.proposition_id);
          const { rationale_codes: _c, strength: _s, ...axes } = warrantNow(view as NonNullable<typeof view>, REFERENCE_V2, at).warrant;
          expect(row.latest_view_id).toBe(view?.view_id);
          expect(row.warrant, row.proposition_id).toEqual(axes);
        }
      };
      for (const at of ['2026-09-23T12:00:00Z', '2026-09-23T12:00:01Z', '2030-01-01T00:00:00Z', '2026-09-23T12:00:00Z']) await expectAxes(await page(at), at);
      // Another handle commits a new snapshot of one proposition: the next page shows it.
      const base = (await writer.get('P-deploys-from-main')) as NonNullable<Awaited<ReturnType<typeof writer.get>>>;
      await writer.put({ ...base, view_id: 'quickstart-deploy-degraded', degraded: true });
      const after = await page('2026-09-23T12:00:00Z');
      expect(after.items.find((r) => r.proposition_id === 'P-deploys-from-main')?.warrant.sufficiency).toBe('DEGRADED');
      await expectAxes(after, '2026-09-23T12:00:00Z');
    } finally {
      await inspector.close();
      await store.close();
      await writer.close();
    }
  });
});
