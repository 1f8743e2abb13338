import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import { afterAll } from 'vitest';
import { SqliteEvidenceStore } from './sqlite-store.js';

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
});
