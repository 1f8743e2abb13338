/** Schema versioning, read-only mode and tamper detection on real SQLite files. */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../src/sqlite-schema.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { openSqliteConnection, type SqliteConnection } from '../src/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-integrity-'));
let n = 0;
const file = () => join(dir, `l${++n}.sqlite`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(fn: () => unknown): { code?: string; reason?: string; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; reason?: string; message: string };
  }
  throw new Error('expected a refusal');
}

async function seeded(): Promise<SqliteEvidenceStore> {
  const store = new SqliteEvidenceStore(file());
  await store.put(seedView('P-1'));
  await store.extend('P-1', [{ kind: 'evidence', record: { ...seedView('P-1').evidence[0], evidence_id: 'e1' } }], { newViewId: 'v2' });
  await store.put(seedView('P-2'));
  return store;
}

describe('schema', () => {
  it('refuses an older or unknown schema version without touching the file', async () => {
    const path = file();
    const tmp = new SqliteEvidenceStore(path);
    await tmp.put(seedView('P-1'));
    await tmp.close();
    for (const version of [SCHEMA_VERSION - 1, SCHEMA_VERSION + 1]) {
      const raw = openSqliteConnection(path);
      raw.pragma(`user_version = ${version}`);
      raw.close();
      const error = refusal(() => new SqliteEvidenceStore(path));
      expect(error).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'schema' });
      expect(error.message).toContain('start a new ledger');
    }
  });

  it('refuses a SQLite file that is not an EWP ledger', () => {
    const path = file();
    const raw = openSqliteConnection(path);
    raw.exec('CREATE TABLE views (x)');
    raw.close();
    expect(refusal(() => new SqliteEvidenceStore(path))).toMatchObject({ reason: 'schema' });
    expect(refusal(() => new SqliteEvidenceStore(path, { readOnly: true }))).toMatchObject({ reason: 'schema' });
  });

  it('refuses a file that is not SQLite at all', () => {
    const path = file();
    writeFileSync(path, 'not a database, just text that is long enough to be read as a header.....................................');
    expect(refusal(() => new SqliteEvidenceStore(path))).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
  });
});

describe('read-only', () => {
  it('refuses a missing path and creates nothing (no file, no directory)', () => {
    const path = join(dir, 'nope', 'deeper', 'ledger.sqlite');
    expect(refusal(() => new SqliteEvidenceStore(path, { readOnly: true }))).toMatchObject({ reason: 'not_found' });
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });

  it('refuses store writes and raw SQL writes, on a ledger whose writer has closed', async () => {
    const store = await seeded();
    const path = store.path;
    await store.close();
    const before = readdirSync(dir);
    const ro = new SqliteEvidenceStore(path, { readOnly: true });
    expect((await ro.get('P-1'))?.view_id).toBe('v2');
    await expect(ro.put(seedView('P-9'))).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'read_only' });
    expect(() => ro.db.exec('DELETE FROM ewp_snapshots')).toThrow(/readonly/i);
    expect((await ro.verifyChain()).ok).toBe(true);
    await ro.close();
    // Only SQLite's own WAL index files may appear (a read-only WAL reader needs them); no ledger content.
    const added = readdirSync(dir).filter((f) => !before.includes(f));
    expect(added.every((f) => f === `${path.split('/').at(-1)}-wal` || f === `${path.split('/').at(-1)}-shm`)).toBe(true);
  });
});

describe('tamper detection', () => {
  const flip = (text: string, at = Math.floor(text.length / 2)) => text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 1) + text.slice(at + 1);

  it('detects a flipped byte in a record row on read and in verify', async () => {
    const store = await seeded();
    // P-1's first page holds its first commit's records; flip a byte inside e0's body.
    const page = store.db.prepare("SELECT page, bodies FROM ewp_records WHERE owner = 'P-1' ORDER BY page LIMIT 1").get() as { page: number; bodies: string };
    const at = page.bodies.indexOf('"evidence_id":"e0"') + 10;
    store.db.prepare('UPDATE ewp_records SET bodies = ? WHERE page = ?').run(flip(page.bodies, at), page.page);
    await expect(store.get('P-1')).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    await expect(store.get('P-1', 'seed')).rejects.toMatchObject({ reason: 'damaged' });
    expect(await store.get('P-2')).toBeDefined();
    const result = await store.verifyChain();
    // Index 0 is the record_appended event that bound e0: the first event the stored rows disagree with.
    expect(result).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 0 });
    await store.close();
  });

  it('detects a flipped byte in a source row (stored once, named by id from its records)', async () => {
    const store = await seeded();
    const page = store.db.prepare("SELECT page, bodies FROM ewp_records WHERE owner = 'P-1' ORDER BY page LIMIT 1").get() as { page: number; bodies: string };
    const at = page.bodies.indexOf('"origin_locator"') + 20;
    store.db.prepare('UPDATE ewp_records SET bodies = ? WHERE page = ?').run(flip(page.bodies, at), page.page);
    await expect(store.get('P-1')).rejects.toMatchObject({ reason: 'damaged' });
    await expect(store.get('P-1', 'seed')).rejects.toMatchObject({ reason: 'damaged' });
    expect(await store.get('P-2')).toBeDefined();
    // Index 0 is the record_appended event that bound the source.
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 0 });
    await store.close();
  });

  it('detects a record page no event appended, a deleted page and an unreadable one', async () => {
    const store = await seeded();
    store.db.prepare(`INSERT INTO ewp_records (owner, keys, bodies) VALUES ('P-1', '[["evidence","forged"]]', '{}')`).run();
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch' });
    store.db.prepare("DELETE FROM ewp_records WHERE keys LIKE '%forged%'").run();
    expect((await store.verifyChain()).ok).toBe(true);
    // The extend's page (P-1's second) holds e1 alone.
    const second = store.db.prepare("SELECT page, keys, bodies FROM ewp_records WHERE owner = 'P-1' ORDER BY page LIMIT 1 OFFSET 1").get() as {
      page: number;
      keys: string;
      bodies: string;
    };
    expect(JSON.parse(second.keys)).toEqual([['evidence', 'e1']]);
    store.db.prepare('UPDATE ewp_records SET keys = ? WHERE page = ?').run('[["evidence"', second.page);
    // Which records an unreadable page held is unknown: every read of P-1 fails closed; P-2 is untouched.
    await expect(store.get('P-1')).rejects.toMatchObject({ reason: 'damaged' });
    await expect(store.get('P-1', 'seed')).rejects.toMatchObject({ reason: 'damaged' });
    expect(await store.get('P-2')).toBeDefined();
    // Index 1 commits P-1's first snapshot, which can no longer be read (index 2 appended e1).
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 1 });
    store.db.prepare('DELETE FROM ewp_records WHERE page = ?').run(second.page);
    await expect(store.get('P-1')).rejects.toMatchObject({ reason: 'damaged' });
    expect(await store.get('P-1', 'seed')).toBeDefined();
    // Index 2 is the record_appended event of the extend: its record is now missing.
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 2 });
    await store.close();
  });

  it('detects a flipped byte in a snapshot head', async () => {
    const store = await seeded();
    const row = store.db.prepare("SELECT head FROM ewp_snapshots WHERE owner = 'P-2'").get() as { head: string };
    store.db.prepare("UPDATE ewp_snapshots SET head = ? WHERE owner = 'P-2'").run(row.head.replace('"degraded":false', '"degraded":true '));
    await expect(store.get('P-2')).rejects.toMatchObject({ reason: 'damaged' });
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch' });
    await store.close();
  });

  it('detects a row whose digest was recomputed to match (the chain event disagrees)', async () => {
    const store = await seeded();
    store.db.prepare("UPDATE ewp_snapshots SET content_digest = 'x' || substr(content_digest, 2) WHERE owner = 'P-2'").run();
    const result = await store.verifyChain();
    expect(result).toMatchObject({ ok: false, reason: 'row_mismatch', firstBadIndex: 5 });
    await store.close();
  });

  it('detects a flipped byte, a swap, a deletion and a truncation in the event log', async () => {
    const cases: [string, (db: SqliteConnection) => void, { reason: string; firstBadIndex: number }, boolean][] = [
      [
        'flipped byte',
        (db) => {
          const { event } = db.prepare('SELECT event FROM ewp_chain WHERE idx = 2').get() as { event: string };
          db.prepare('UPDATE ewp_chain SET event = ? WHERE idx = 2').run(event.replace('"P-1"', '"P-l"'));
        },
        { reason: 'hash_mismatch', firstBadIndex: 2 },
        false,
      ],
      [
        'swapped entries',
        (db) => {
          db.exec('UPDATE ewp_chain SET idx = -1 WHERE idx = 1; UPDATE ewp_chain SET idx = 1 WHERE idx = 2; UPDATE ewp_chain SET idx = 2 WHERE idx = -1');
        },
        { reason: 'seq_mismatch', firstBadIndex: 1 },
        false,
      ],
      ['deleted entry', (db) => db.exec('DELETE FROM ewp_chain WHERE idx = 3'), { reason: 'seq_mismatch', firstBadIndex: 3 }, false],
      ['truncated tail', (db) => db.exec('DELETE FROM ewp_chain WHERE idx >= 4'), { reason: 'truncated', firstBadIndex: 4 }, true],
      ['emptied log', (db) => db.exec('DELETE FROM ewp_chain'), { reason: 'truncated', firstBadIndex: 0 }, true],
    ];
    for (const [name, tamper, expected, tailGone] of cases) {
      const store = await seeded();
      tamper(store.db);
      expect(await store.verifyChain(), name).toMatchObject({ ok: false, ...expected });
      // A log whose tail disagrees with the anchor is never extended or restarted from genesis.
      if (tailGone) await expect(store.put(seedView('P-new')), name).rejects.toMatchObject({ reason: 'damaged' });
      await store.close();
    }
  });
});
