import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import { afterAll } from 'vitest';
import { JsonFileEvidenceStore } from './json-file-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-standard-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rewrite `entries.jsonl` of a ledger, one parsed row at a time. */
function editEntries(root: string, edit: (rows: Record<string, unknown>[]) => Record<string, unknown>[]): void {
  const path = join(root, 'entries.jsonl');
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  writeFileSync(
    path,
    edit(rows)
      .map((row) => `${JSON.stringify(row)}\n`)
      .join(''),
  );
}

runStoreConformance({
  name: 'json-files',
  create: () => new JsonFileEvidenceStore(join(dir, `ledger-${++n}`)),
  capabilities: JsonFileEvidenceStore.CAPABILITIES,
  reopen: async (store) => {
    await store.close();
    return new JsonFileEvidenceStore(store.root);
  },
  openReadOnly: async (store) => new JsonFileEvidenceStore(store.root, { readOnly: true }),
  openSecond: async (store) => new JsonFileEvidenceStore(store.root),
  tamperEntries: (store) => {
    const is = (kind: string, id: string) => (row: Record<string, unknown>) => row.kind === kind && row.id === id;
    return {
      setBody: async (kind, id, body) => editEntries(store.root, (rows) => rows.map((row) => (is(kind, id)(row) ? { ...row, body } : row))),
      remove: async (kind, id) => editEntries(store.root, (rows) => rows.filter((row) => !is(kind, id)(row))),
      copy: async (kind, id, newId, chainIndex) =>
        editEntries(store.root, (rows) => [...rows, ...rows.filter(is(kind, id)).map((row) => ({ ...row, id: newId, chain_index: chainIndex }))]),
    };
  },
});
