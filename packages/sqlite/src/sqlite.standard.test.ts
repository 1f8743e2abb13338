import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import { afterAll } from 'vitest';
import { SqliteEvidenceStore } from './sqlite-store.js';
import { openSqliteConnection } from './sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-sqlite-standard-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreConformance({
  name: 'sqlite',
  create: () => new SqliteEvidenceStore(join(dir, `ledger-${++n}.sqlite`)),
  capabilities: SqliteEvidenceStore.CAPABILITIES,
  reopen: async (store) => {
    await store.close();
    return new SqliteEvidenceStore(store.path);
  },
  openReadOnly: async (store) => new SqliteEvidenceStore(store.path, { readOnly: true }),
  // Plain SQL on the ledger file through a connection of its own, behind the store's back.
  tamperEntries: (store) => {
    const run = async (sql: string, ...params: unknown[]) => {
      const db = openSqliteConnection(store.path);
      try {
        db.prepare(sql).run(...params);
      } finally {
        db.close();
      }
    };
    return {
      setBody: (kind, id, body) => run('UPDATE ewp_entries SET body = ? WHERE kind = ? AND id = ?', body, kind, id),
      remove: (kind, id) => run('DELETE FROM ewp_entries WHERE kind = ? AND id = ?', kind, id),
      copy: (kind, id, newId, chainIndex) =>
        run(
          'INSERT INTO ewp_entries (kind, id, chain_index, subjects, body, committed_at) SELECT kind, ?, ?, subjects, body, committed_at FROM ewp_entries WHERE kind = ? AND id = ?',
          newId,
          chainIndex,
          kind,
          id,
        ),
    };
  },
});
