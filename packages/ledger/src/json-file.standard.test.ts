import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import { afterAll } from 'vitest';
import { JsonFileEvidenceStore } from './json-file-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-standard-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreConformance({
  name: 'json-files',
  create: () => new JsonFileEvidenceStore(join(dir, `ledger-${++n}`)),
  capabilities: JsonFileEvidenceStore.CAPABILITIES,
  reopen: async (store) => {
    await store.close();
    return new JsonFileEvidenceStore(store.root);
  },
  openReadOnly: async (store) => new JsonFileEvidenceStore(store.root, { readOnly: true }),
});
