/**
 * Choosing the SQLite driver: the default follows the Node (node:sqlite where built in, else
 * better-sqlite3), `driver` forces one, `store.driver` says which runs, and a driver that cannot load
 * is a typed `SqliteDriverUnavailableError` (a `StoreUnavailableError`) that creates nothing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreUnavailableError } from '@ewp/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { defaultSqliteDriver, hasNodeSqlite, SqliteDriverUnavailableError } from '../src/sqlite-driver.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const builtIn = typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') === 'object';

describe('SQLite driver choice', () => {
  it('defaults to node:sqlite where this Node has it, better-sqlite3 elsewhere', async () => {
    expect(hasNodeSqlite()).toBe(builtIn && Number(process.versions.node.split('.')[0]) >= 22);
    expect(defaultSqliteDriver()).toBe(hasNodeSqlite() ? 'node:sqlite' : 'better-sqlite3');
    const store = new SqliteEvidenceStore(join(dir, 'default.sqlite'));
    expect(store.driver).toBe(defaultSqliteDriver());
    expect(store.db.driver).toBe(store.driver);
    await store.close();
  });

  it('the other driver is used when forced, or refused with a typed error that creates nothing', async () => {
    const other = defaultSqliteDriver() === 'node:sqlite' ? 'better-sqlite3' : 'node:sqlite';
    const file = join(dir, 'forced.sqlite');
    const seeded = new SqliteEvidenceStore(file);
    await seeded.put(seedView('P-1'));
    await seeded.close();
    let store: SqliteEvidenceStore | undefined;
    try {
      store = new SqliteEvidenceStore(file, { driver: other });
    } catch (error) {
      // node:sqlite on Node 20; better-sqlite3 on a Node it was not built for.
      expect(SqliteDriverUnavailableError.isInstance(error)).toBe(true);
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'connection', driver: other, code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
      expect((error as Error).message).toMatch(other === 'node:sqlite' ? /Node ≥ 22\.16.*npm i better-sqlite3/ : /better-sqlite3/);
      const missing = join(dir, 'never.sqlite');
      expect(() => new SqliteEvidenceStore(missing, { driver: other })).toThrow(SqliteDriverUnavailableError);
      expect(existsSync(missing)).toBe(false);
      return;
    }
    expect(store.driver).toBe(other);
    expect((await store.get('P-1'))?.proposition_id).toBe('P-1');
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();
  });

  it('refuses an unknown driver name', () => {
    expect(() => new SqliteEvidenceStore(join(dir, 'x.sqlite'), { driver: 'sqlite3' as never })).toThrow(/unknown SQLite driver "sqlite3"/);
  });
});
