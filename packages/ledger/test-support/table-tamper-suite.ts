/**
 * The tamper suite of the table stores (SQLite and PostgreSQL run the same one): one edit at a time,
 * made behind the store's back with plain SQL — every column of every row of every table changed,
 * every row deleted, every row copied under another key — and for each edit either the audit
 * (`verifyChain`, what `ewp audit verify` runs) or a read refuses, or every read still returns exactly
 * what was committed (see `tamper-judge.ts`). Each edit is undone before the next; the suite checks the
 * tables are back as they were. A missed edit fails the test.
 */
import { describe, expect, it } from 'vitest';
import type { EvidenceStore } from '../src/evidence-store.js';
import { evidenceRecord, seedView } from './fault-views.js';
import { judgeTamper, readAll, TamperTally } from './tamper-judge.js';

type Row = Record<string, unknown>;

/** One ledger, edited with plain SQL behind its store's back. */
export interface TamperableLedger {
  /** A new read-only store on this ledger. */
  openReadOnly(): Promise<EvidenceStore>;
  /** Run one statement with foreign keys off (an attacker's edit); throws when the database refuses it. */
  exec(sql: string, params?: readonly unknown[]): Promise<void>;
  /** Every row of `table`, integers as numbers. */
  rows(table: string): Promise<Row[]>;
  /** Close the raw connection and remove the ledger. */
  dispose(): Promise<void>;
}

export interface TableTamperTarget {
  name: string;
  /** A new, empty ledger: the writable store and the raw handle. */
  create(): Promise<{ store: EvidenceStore; ledger: TamperableLedger }>;
  /** Every table of the ledger (as SQL names) with its primary-key columns. */
  tables: { name: string; key: string[] }[];
  /** The SQL name of the snapshot table (columns `seq`, `owner`, `parent_seq`, …, shared by both stores). */
  snapshots: string;
  /** The SQL placeholder of the `i`-th parameter (1-based). */
  placeholder(i: number): string;
}

/**
 * The ledger every case edits: seq 1 = P-2 seed; seq 2 = P-1 seed; seq 3 = P-1 v2, adding the only
 * opposing evidence; seq 4 = P-1 v3, a delta over v2, with a ledger entry; then two more entries.
 */
async function fill(store: EvidenceStore): Promise<string> {
  await store.put(seedView('P-2'));
  await store.put(seedView('P-1'));
  await store.extend('P-1', [{ kind: 'evidence', record: { ...evidenceRecord('e-opp'), polarity: 'opposes' } }], { newViewId: 'v2' });
  await store.extend('P-1', [{ kind: 'evidence', record: evidenceRecord('e3') }], {
    newViewId: 'v3',
    entries: [{ kind: 'memory.store', id: 'm1', subjects: ['P-1'], body: { text: 'remember e3', n: 1 } }],
  });
  await store.appendEntries([
    { kind: 'decision', id: 'd1', subjects: ['P-1', 'P-2'], body: { verdict: 'act', big: 2n ** 70n } },
    { kind: 'memory.link', id: 'l1', body: { from: 'm1' } },
  ]);
  return readAll(store);
}

/** Other values for one cell: off by one, zero, shortened, lengthened, a changed hex digit, null. */
function mutations(v: unknown): unknown[] {
  if (typeof v === 'number') return [v + 1, v - 1, 0, null];
  if (typeof v === 'string') {
    const out: unknown[] = [v.length > 0 ? v.slice(0, -1) : 'x', `${v} `, null];
    const flipped = v.replace(/[0-9a-f]/, (c) => (c === '0' ? '1' : '0'));
    if (flipped !== v) out.push(flipped);
    return out;
  }
  return [1, 'x'];
}

/** A key no committed row uses, for a copied row. */
function otherKey(v: unknown): unknown {
  return typeof v === 'number' ? v + 100 : `${String(v)}-copy`;
}

export function runTableTamperSuite(target: TableTamperTarget): void {
  const p = target.placeholder;
  const where = (key: string[], offset: number) => key.map((k, i) => `${k} = ${p(offset + i + 1)}`).join(' AND ');

  async function tamperedLedger() {
    const { store, ledger } = await target.create();
    const reads = await fill(store);
    await store.close();
    return { ledger, reads, judge: () => judgeTamper(() => ledger.openReadOnly(), reads) };
  }

  /** Copy every table into a temporary table of the raw connection (undone by {@link restore}). */
  async function save(ledger: TamperableLedger): Promise<void> {
    for (const [i, t] of target.tables.entries()) await ledger.exec(`CREATE TEMP TABLE saved_${i} AS SELECT * FROM ${t.name}`);
  }

  async function restore(ledger: TamperableLedger): Promise<void> {
    for (const [i, t] of target.tables.entries()) {
      await ledger.exec(`DELETE FROM ${t.name}`);
      await ledger.exec(`INSERT INTO ${t.name} SELECT * FROM saved_${i}`);
    }
  }

  async function dump(ledger: TamperableLedger): Promise<string> {
    const out: Row[][] = [];
    for (const t of target.tables) {
      const rows = await ledger.rows(t.name);
      out.push(
        rows
          .map((r) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1))))
          .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
      );
    }
    return JSON.stringify(out);
  }

  describe(`tamper suite: ${target.name}`, () => {
    it('a delta re-parented past the snapshot with the only opposing evidence fails the audit', async () => {
      const { ledger, judge } = await tamperedLedger();
      try {
        await ledger.exec(`UPDATE ${target.snapshots} SET parent_seq = 2 WHERE seq = 4`);
        const store = await ledger.openReadOnly();
        const latest = await store.get('P-1');
        expect(latest?.view_id).toBe('v3');
        expect(latest?.evidence.some((e) => e.evidence_id === 'e-opp')).toBe(false); // the read did change
        expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch' });
        await store.close();
        expect(await judge()).toBe('caught');
      } finally {
        await ledger.dispose();
      }
    });

    it('listed assertion texts, commit times, record counts, depth and commit order are covered', async () => {
      const s = target.snapshots;
      const edits = [
        `UPDATE ${s} SET assertion_texts = '["forged claim"]' WHERE owner = 'P-2'`,
        `UPDATE ${s} SET committed_at = '2020-01-01T00:00:00.000Z' WHERE owner = 'P-2'`,
        `UPDATE ${s} SET record_count = record_count + 1 WHERE owner = 'P-2'`,
        `UPDATE ${s} SET depth = 0 WHERE view_id = 'v3'`,
        `UPDATE ${s} SET parent_seq = NULL, depth = 0 WHERE view_id = 'v3'`,
        `UPDATE ${s} SET seq = 99 WHERE view_id = 'v2'`,
      ];
      const { ledger, judge } = await tamperedLedger();
      try {
        const before = await dump(ledger);
        await save(ledger);
        for (const sql of edits) {
          await ledger.exec(sql);
          expect(await judge(), sql).toBe('caught');
          await restore(ledger);
          expect(await dump(ledger)).toBe(before);
        }
      } finally {
        await ledger.dispose();
      }
    });

    it('every column of every row changed, every row deleted, every row copied: caught or harmless, never missed', async () => {
      const { ledger, judge } = await tamperedLedger();
      const tally = new TamperTally();
      try {
        const before = await dump(ledger);
        await save(ledger);
        const attempt = async (name: string, sql: string, params: readonly unknown[]) => {
          let refused = false;
          try {
            await ledger.exec(sql, params);
          } catch {
            refused = true; // the schema itself refuses the edit (UNIQUE, NOT NULL, a type)
          }
          tally.add(name, refused ? 'refused' : await judge());
          if (!refused) await restore(ledger);
        };
        for (const table of target.tables) {
          const rows = await ledger.rows(table.name);
          for (const row of rows) {
            const keyValues = table.key.map((k) => row[k]);
            const label = `${table.name}[${keyValues.join(',')}]`;
            for (const [column, value] of Object.entries(row)) {
              for (const next of mutations(value)) {
                await attempt(`${label}.${column} = ${JSON.stringify(next)}`, `UPDATE ${table.name} SET ${column} = ${p(1)} WHERE ${where(table.key, 1)}`, [
                  next,
                  ...keyValues,
                ]);
              }
            }
            await attempt(`${label} deleted`, `DELETE FROM ${table.name} WHERE ${where(table.key, 0)}`, keyValues);
            const columns = Object.keys(row);
            const copy = columns.map((c) => (c === table.key.at(-1) ? otherKey(row[c]) : row[c]));
            await attempt(`${label} copied`, `INSERT INTO ${table.name} (${columns.join(', ')}) VALUES (${columns.map((_, i) => p(i + 1)).join(', ')})`, copy);
          }
        }
        expect(await dump(ledger)).toBe(before);
      } finally {
        await ledger.dispose();
      }
      console.log(tally.summary(`${target.name} row tamper`));
      expect(tally.missed).toEqual([]);
      expect(tally.counts.caught).toBeGreaterThan(100);
    }, 600_000);
  });
}
