/**
 * The tamper suite on real SQLite files: the table suite shared with PostgreSQL (every column of every
 * row kind, rows deleted and copied), then what only a file has: a row missing from an index, and
 * single-byte flips across the pages. For each edit either the audit (`verifyChain`, what
 * `ewp audit verify` runs, SQLite's `integrity_check` first) or a read refuses, or every read still
 * returns exactly what was committed. A missed edit fails the test.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evidenceRecord, seedView } from '../../ledger/test-support/fault-views.js';
import { runTableTamperSuite } from '../../ledger/test-support/table-tamper-suite.js';
import { judgeTamper, readAll, TamperTally } from '../../ledger/test-support/tamper-judge.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';
import { openSqliteConnection, type SqliteConnection } from '../src/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-tamper-'));
let n = 0;
const file = () => join(dir, `t${++n}.sqlite`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** P-1: seed, then v2 adds an opposing record, then v3 adds another (v3 is a delta over v2 over seed). */
async function ledger(): Promise<{ path: string; reads: string }> {
  const path = file();
  const store = new SqliteEvidenceStore(path);
  await store.put(seedView('P-1'));
  await store.extend('P-1', [{ kind: 'evidence', record: { ...evidenceRecord('e-opp'), polarity: 'opposes' } }], { newViewId: 'v2' });
  await store.extend('P-1', [{ kind: 'evidence', record: evidenceRecord('e3') }], { newViewId: 'v3' });
  await store.put(seedView('P-2'));
  const reads = await readAll(store);
  await store.close();
  return { path, reads };
}

const judge = (path: string, reads: string) => judgeTamper(() => new SqliteEvidenceStore(path, { readOnly: true }), reads);

function edit(path: string, sql: string, ...params: unknown[]): void {
  const store = new SqliteEvidenceStore(path);
  store.db.pragma('foreign_keys = OFF');
  store.db.prepare(sql).run(...params);
  // Drop the WAL so a byte-level copy holds every page.
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.close();
}

runTableTamperSuite({
  name: 'sqlite',
  tables: [
    { name: 'ewp_meta', key: ['key'] },
    { name: 'ewp_records', key: ['page'] },
    { name: 'ewp_snapshots', key: ['seq'] },
    { name: 'ewp_chain', key: ['idx'] },
    { name: 'ewp_entries', key: ['kind', 'id'] },
    { name: 'ewp_entry_subjects', key: ['subject', 'chain_index'] },
  ],
  snapshots: 'ewp_snapshots',
  placeholder: () => '?',
  create: async () => {
    const path = file();
    const store = new SqliteEvidenceStore(path);
    let raw: SqliteConnection | undefined;
    const db = () => {
      if (raw === undefined) {
        raw = openSqliteConnection(path);
        raw.pragma('foreign_keys = OFF');
      }
      return raw;
    };
    return {
      store,
      ledger: {
        openReadOnly: async () => new SqliteEvidenceStore(path, { readOnly: true }),
        exec: async (sql, params = []) => {
          db()
            .prepare(sql)
            .run(...params);
        },
        rows: async (table) => db().prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[],
        dispose: async () => {
          raw?.close();
          rmSync(path, { force: true });
        },
      },
    };
  },
});

describe('attacker cases', () => {
  it('a row missing from an index (reads miss a snapshot) fails the audit through integrity_check', async () => {
    const { path, reads } = await ledger();
    // Build the same ledger's owner index without P-2's row in a copy, and splice that index page
    // into the original: the table is intact, the index lies (what a torn or flipped index page does).
    const copy = file();
    copyFileSync(path, copy);
    edit(copy, "DELETE FROM ewp_snapshots WHERE owner = 'P-2'");
    const probe = new SqliteEvidenceStore(path, { readOnly: true });
    const { rootpage } = probe.db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'ewp_snapshots_by_owner'").get() as { rootpage: number };
    const pageSize = probe.db.pragma('page_size', { simple: true }) as number;
    await probe.close();
    const original = readFileSync(path);
    const lying = readFileSync(copy);
    lying.copy(original, (rootpage - 1) * pageSize, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(path, original);
    const store = new SqliteEvidenceStore(path, { readOnly: true });
    // The read through the index misses P-2 ...
    expect(await store.get('P-2')).toBeUndefined();
    // ... and the audit says so.
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'storage_damaged' });
    await store.close();
    expect(await judge(path, reads)).toBe('caught');
  });
});

describe('byte flips', () => {
  it('single-byte flips across the file (a spread over the bytes in use, and random ones): caught or harmless, never missed', async () => {
    const { path: base, reads } = await ledger();
    const bytes = readFileSync(base);
    const tally = new TamperTally();
    const flip = async (offset: number, mask: number) => {
      const copy = Buffer.from(bytes);
      copy[offset] = (copy[offset] as number) ^ mask;
      const path = file();
      writeFileSync(path, copy);
      tally.add(`byte ${offset} ^ ${mask}`, await judge(path, reads));
      rmSync(path, { force: true });
    };
    // A deterministic spread over the bytes in use ...
    const used: number[] = [];
    for (let i = 0; i < bytes.length; i += 1) if (bytes[i] !== 0) used.push(i);
    const step = Math.max(1, Math.floor(used.length / 600));
    for (let k = 0; k < used.length; k += step) await flip(used[k] as number, 0x5a);
    // ... and random offsets anywhere in the file with random masks (a fixed seed, so a miss reproduces).
    let seed = 0x2545f491;
    const random = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    for (let k = 0; k < 400; k += 1) await flip(Math.floor(random() * bytes.length), 1 + Math.floor(random() * 255));
    console.log(`${tally.summary('sqlite byte flips')} (file ${bytes.length} bytes)`);
    expect(tally.missed).toEqual([]);
  }, 600_000);
});
