import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryQuerySql } from './sqlite-backend.js';
import { SqliteEvidenceStore } from './sqlite-store.js';
import { openSqliteConnection } from './sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-entry-query-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's plan for `q` on a ledger file holding 3,000 entries of three kinds (no statistics, as a real ledger). */
async function planOf(q: Parameters<typeof entryQuerySql>[0]): Promise<string> {
  const path = join(dir, 'ledger.sqlite');
  const store = new SqliteEvidenceStore(path);
  if ((await store.readEntries({ limit: 1 })).length === 0) {
    const kinds = ['decision', 'decision.call', 'decision.outcome'];
    await store.appendEntries(Array.from({ length: 3000 }, (_, i) => ({ kind: kinds[i % 3] as string, id: `e-${i}`, body: { i } })));
  }
  await store.close();
  const db = openSqliteConnection(path, { readOnly: true });
  try {
    const { sql, params } = entryQuerySql(q);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  } finally {
    db.close();
  }
}

describe('entry queries on SQLite', () => {
  it('an incremental read of some kinds walks the chain index from where it left off, never the kinds’ whole history', async () => {
    const plan = await planOf({ kinds: ['decision', 'decision.outcome'], afterIndex: 2990, limit: 500 });
    expect(plan).toContain('ewp_entries_by_index (chain_index>?)');
    expect(plan).not.toContain('TEMP B-TREE');
    const prefixed = await planOf({ kinds: [], prefixes: ['decision.'], afterIndex: 2990, limit: 500 });
    expect(prefixed).toContain('ewp_entries_by_index (chain_index>?)');
  });

  it('the newest entries of some kinds come from the chain index read backwards, never a sort of the kinds’ history', async () => {
    const plan = await planOf({ kinds: ['decision'], newestFirst: true, limit: 16 });
    expect(plan).toContain('ewp_entries_by_index');
    expect(plan).not.toContain('TEMP B-TREE');
    const paged = await planOf({ kinds: ['decision'], newestFirst: true, beforeIndex: 100, limit: 16 });
    expect(paged).toContain('ewp_entries_by_index (chain_index<?)');
    expect(paged).not.toContain('TEMP B-TREE');
    const bySubject = await planOf({ kinds: ['decision'], subject: 'P-a', newestFirst: true, limit: 16 });
    expect(bySubject).not.toContain('TEMP B-TREE');
  });

  it('a lookup of one entry by kind and id stays on the primary key', async () => {
    expect(await planOf({ kinds: ['decision'], id: 'e-3', limit: 1 })).toContain('PRIMARY KEY (kind=? AND id=?)');
  });

  it('returns the same rows either way', async () => {
    const store = new SqliteEvidenceStore(join(dir, 'ledger.sqlite'));
    const incremental = await store.readEntries({ kind: ['decision', 'decision.outcome'], afterIndex: 2900, limit: 500 });
    const all = (await store.readEntries({ kind: ['decision', 'decision.outcome'], limit: 5000 })).filter((e) => e.chain_index > 2900);
    await store.close();
    expect(incremental.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(incremental.length).toBeGreaterThan(50);
  });
});
