/**
 * The tamper suite on real SQLite files: one edit at a time, of every column of every row kind and of
 * the file's bytes, and for each edit either the audit (`verifyChain`, what `ewp audit verify` runs)
 * fails or every read still returns exactly what was committed. A missed edit fails the test.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evidenceRecord, seedView } from '../../ledger/test-support/fault-views.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-tamper-'));
let n = 0;
const file = () => join(dir, `t${++n}.sqlite`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything a reader can see, as JSON text (views of every snapshot, lists). */
async function readAll(store: SqliteEvidenceStore): Promise<string> {
  const props = await store.listPropositions({ limit: 1000 });
  const out: unknown[] = [props];
  for (const p of props) {
    out.push(await store.get(p.proposition_id));
    const snaps = await store.listSnapshots(p.proposition_id);
    out.push(snaps);
    for (const s of snaps) out.push(await store.get(p.proposition_id, s.view_id));
  }
  return JSON.stringify(out);
}

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

type Outcome = 'caught' | 'harmless' | 'missed';

/** Open a tampered copy; caught when opening, reading or the audit refuses; harmless when reads are unchanged. */
async function judge(path: string, reads: string): Promise<Outcome> {
  let store: SqliteEvidenceStore;
  try {
    store = new SqliteEvidenceStore(path, { readOnly: true });
  } catch {
    return 'caught';
  }
  try {
    const audit = await store.verifyChain().catch(() => ({ ok: false }));
    if (!audit.ok) return 'caught';
    let now: string;
    try {
      now = await readAll(store);
    } catch {
      return 'caught'; // a read refuses: the tamper cannot change what a reader believes
    }
    return now === reads ? 'harmless' : 'missed';
  } finally {
    await store.close();
  }
}

function edit(path: string, sql: string, ...params: unknown[]): void {
  const store = new SqliteEvidenceStore(path);
  store.db.pragma('foreign_keys = OFF');
  store.db.prepare(sql).run(...params);
  // Drop the WAL so a byte-level copy holds every page.
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.close();
}

describe('attacker cases', () => {
  it('a delta re-parented past the snapshot that holds the only opposing evidence fails the audit', async () => {
    const { path, reads } = await ledger();
    // seq 1 = seed, 2 = v2 (adds e-opp), 3 = v3 (delta over v2): point v3 at the seed instead.
    edit(path, "UPDATE ewp_snapshots SET parent_seq = 1 WHERE owner = 'P-1' AND view_id = 'v3'");
    const store = new SqliteEvidenceStore(path, { readOnly: true });
    const latest = await store.get('P-1');
    expect(latest?.evidence.some((e) => e.evidence_id === 'e-opp')).toBe(false); // the read did change
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch' });
    await store.close();
    expect(await judge(path, reads)).toBe('caught');
  });

  it('listed assertion texts, commit times, record counts, depth and commit order are covered', async () => {
    const edits = [
      `UPDATE ewp_snapshots SET assertion_texts = '["forged claim"]' WHERE owner = 'P-2'`,
      `UPDATE ewp_snapshots SET committed_at = '2020-01-01T00:00:00.000Z' WHERE owner = 'P-2'`,
      `UPDATE ewp_snapshots SET record_count = record_count + 1 WHERE owner = 'P-2'`,
      `UPDATE ewp_snapshots SET depth = 0 WHERE view_id = 'v3'`,
      `UPDATE ewp_snapshots SET parent_seq = NULL, depth = 0 WHERE view_id = 'v3'`,
      `UPDATE ewp_snapshots SET seq = 99 WHERE view_id = 'v2'`,
    ];
    for (const sql of edits) {
      const { path, reads } = await ledger();
      edit(path, sql);
      expect(await judge(path, reads), sql).toBe('caught');
    }
  });

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

describe('tamper suite', () => {
  it('every column of every row kind, one edit at a time: caught or harmless, never missed', async () => {
    const { path: base, reads } = await ledger();
    const probe = new SqliteEvidenceStore(base, { readOnly: true });
    const tables: Record<string, string[]> = {};
    for (const t of ['ewp_meta', 'ewp_records', 'ewp_snapshots', 'ewp_chain']) {
      tables[t] = (probe.db.prepare(`SELECT name FROM pragma_table_info('${t}')`).all() as { name: string }[]).map((r) => r.name);
    }
    const rowids: Record<string, number[]> = {};
    for (const t of Object.keys(tables).filter((t) => t !== 'ewp_meta')) {
      rowids[t] = (probe.db.prepare(`SELECT rowid AS r FROM ${t}`).all() as { r: number }[]).map((r) => r.r);
    }
    // ewp_meta is WITHOUT ROWID: address its rows by key.
    const metaKeys = (probe.db.prepare('SELECT key FROM ewp_meta').all() as { key: string }[]).map((r) => r.key);
    await probe.close();
    const tally: Record<Outcome, number> = { caught: 0, harmless: 0, missed: 0 };
    const missed: string[] = [];
    const mutations = (v: unknown): unknown[] => {
      if (typeof v === 'number') return [v + 1, v - 1, 0];
      if (typeof v === 'string') return [v.length > 0 ? v.slice(0, -1) : 'x', `${v} `, v.replace(/[0-9a-f]/, (c) => (c === '0' ? '1' : '0'))];
      return [1];
    };
    for (const [table, columns] of Object.entries(tables)) {
      const keys = table === 'ewp_meta' ? metaKeys : (rowids[table] as number[]);
      for (const key of keys) {
        for (const column of columns) {
          const where = table === 'ewp_meta' ? 'key = ?' : 'rowid = ?';
          const src = new SqliteEvidenceStore(base, { readOnly: true });
          const value = (src.db.prepare(`SELECT ${column} AS v FROM ${table} WHERE ${where}`).get(key) as { v: unknown }).v;
          await src.close();
          for (const next of mutations(value)) {
            const path = file();
            copyFileSync(base, path);
            try {
              edit(path, `UPDATE ${table} SET ${column} = ? WHERE ${where}`, next, key);
            } catch {
              tally.caught += 1; // the schema itself refuses the edit (UNIQUE, NOT NULL)
              continue;
            }
            const outcome = await judge(path, reads);
            tally[outcome] += 1;
            if (outcome === 'missed') missed.push(`${table}.${column}[${key}] = ${JSON.stringify(next)}`);
            rmSync(path, { force: true });
          }
        }
      }
    }
    console.log(`column tamper: tried ${tally.caught + tally.harmless + tally.missed}, caught ${tally.caught}, harmless ${tally.harmless}, missed ${tally.missed}`);
    expect(missed).toEqual([]);
  });

  it('single-byte flips across the file: caught or harmless, never missed', async () => {
    const { path: base, reads } = await ledger();
    const bytes = readFileSync(base);
    const tally: Record<Outcome, number> = { caught: 0, harmless: 0, missed: 0 };
    const missed: number[] = [];
    // A deterministic spread over the bytes in use (free space is zeros and cannot change a read).
    const used: number[] = [];
    for (let i = 0; i < bytes.length; i += 1) if (bytes[i] !== 0) used.push(i);
    const step = Math.max(1, Math.floor(used.length / 600));
    for (let k = 0; k < used.length; k += step) {
      const offset = used[k] as number;
      const copy = Buffer.from(bytes);
      copy[offset] = (copy[offset] as number) ^ 0x5a;
      const path = file();
      writeFileSync(path, copy);
      const outcome = await judge(path, reads);
      tally[outcome] += 1;
      if (outcome === 'missed') missed.push(offset);
      rmSync(path, { force: true });
    }
    console.log(`byte flips: tried ${tally.caught + tally.harmless + tally.missed}, caught ${tally.caught}, harmless ${tally.harmless}, missed ${tally.missed} (file ${bytes.length} bytes)`);
    expect(missed).toEqual([]);
  });
});
