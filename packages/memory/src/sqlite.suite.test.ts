import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll } from 'vitest';
import { runMemoryConformance } from './testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-memory-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runMemoryConformance({
  name: 'sqlite',
  create: () => new SqliteEvidenceStore(join(dir, `ledger-${++n}.sqlite`)),
  reopen: async (store) => {
    await store.close();
    return new SqliteEvidenceStore(store.path);
  },
  // An UPDATE behind the store's back: one changed byte of the entry row's body in the file.
  tamperEntry: async (store, kind, id) => {
    store.db.prepare("UPDATE ewp_entries SET body = replace(body, 'blocked', 'blockee') WHERE kind = ? AND id = ?").run(kind, id);
  },
});
