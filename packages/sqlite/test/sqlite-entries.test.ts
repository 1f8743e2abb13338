/**
 * Ledger entries on SQLite files made before entries existed (no entry tables): they open and verify
 * as before, read-only handles read no entries, and the first writable open adds the tables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { openSqliteConnection } from '../src/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-entries-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A ledger with one snapshot and the entry tables dropped: the shape of a file made before entries. */
async function oldLedger(): Promise<string> {
  const path = join(dir, `old-${++n}.sqlite`);
  const store = new SqliteEvidenceStore(path);
  await store.put(seedView('P-1'));
  await store.close();
  const db = openSqliteConnection(path);
  db.exec('DROP TABLE ewp_entries; DROP TABLE ewp_entry_subjects;');
  db.close();
  return path;
}

const tables = (path: string) => {
  const db = openSqliteConnection(path, { readOnly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ewp_entr%' ORDER BY name").pluck().all() as string[]).join(',');
  } finally {
    db.close();
  }
};

describe('sqlite ledgers made before entries', () => {
  it('open read-only, verify and read no entries, without gaining tables', async () => {
    const path = await oldLedger();
    const ro = new SqliteEvidenceStore(path, { readOnly: true });
    expect(await ro.verifyChain()).toMatchObject({ ok: true, length: 2 });
    expect(await ro.readEntries()).toEqual([]);
    expect(await ro.readEntries({ subject: 'P-1' })).toEqual([]);
    expect((await ro.get('P-1'))?.view_id).toBe(seedView('P-1').view_id);
    await ro.close();
    expect(tables(path)).toBe('');
  });

  it('gain the entry tables on a writable open, and take entries after their snapshots', async () => {
    const path = await oldLedger();
    const store = new SqliteEvidenceStore(path);
    expect(tables(path)).toBe('ewp_entries,ewp_entry_subjects');
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 2 });
    expect(await store.appendEntries([{ kind: 'memory.store', id: 'm1', subjects: ['P-1'], body: { n: 1 } }])).toEqual([
      { status: 'stored', kind: 'memory.store', id: 'm1', chain_index: 2 },
    ]);
    await store.close();
    const ro = new SqliteEvidenceStore(path, { readOnly: true });
    expect((await ro.readEntries({ subject: 'P-1' })).map((e) => e.id)).toEqual(['m1']);
    expect(await ro.verifyChain()).toMatchObject({ ok: true, length: 3 });
    await ro.close();
  });

  it('a read-only handle opened before the tables existed reads entries once a writer adds them', async () => {
    const path = await oldLedger();
    const ro = new SqliteEvidenceStore(path, { readOnly: true });
    expect(await ro.readEntries()).toEqual([]);
    const writer = new SqliteEvidenceStore(path);
    await writer.appendEntries([{ kind: 'decision', id: 'd1', body: {} }]);
    await writer.close();
    expect((await ro.readEntries()).map((e) => e.id)).toEqual(['d1']);
    expect(await ro.verifyChain()).toMatchObject({ ok: true, length: 3 });
    await ro.close();
  });
});
