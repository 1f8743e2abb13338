import { runStoreConformance } from '@ewp/conformance/store-suite';
import { CommitRecordEvidenceStore } from './commit-record-evidence-store.js';
import { MemoryCommitRecordStore } from './commit-record-memory-store.js';
import type { StoredEntryRow } from './ledger-backend.js';

/** Rewrite the entry rows every commit record carries (a client of the store editing records behind the ledger). */
function editEntryRows(records: MemoryCommitRecordStore, edit: (rows: StoredEntryRow[]) => StoredEntryRow[]): void {
  for (const record of records.records) {
    if (record.family !== 'commit') continue;
    const body = JSON.parse(record.body) as { entry_rows?: StoredEntryRow[] };
    if (body.entry_rows === undefined) continue;
    record.body = JSON.stringify({ ...body, entry_rows: edit(body.entry_rows) });
  }
}

// The engine on the commit-record protocol over the in-memory record store; reopening is a second
// client on the same records, as a restarted process would be.
runStoreConformance({
  name: 'commit-records (memory)',
  create: () => new CommitRecordEvidenceStore(new MemoryCommitRecordStore()),
  capabilities: new CommitRecordEvidenceStore(new MemoryCommitRecordStore()).capabilities,
  reopen: async (store) => {
    await store.close();
    return new CommitRecordEvidenceStore(store.records);
  },
  openReadOnly: async (store) => new CommitRecordEvidenceStore(store.records, { readOnly: true }),
  tamperEntries: (store) => {
    const records = store.records as MemoryCommitRecordStore;
    const is = (kind: string, id: string) => (row: StoredEntryRow) => row.kind === kind && row.id === id;
    return {
      setBody: async (kind, id, body) => editEntryRows(records, (rows) => rows.map((row) => (is(kind, id)(row) ? { ...row, body } : row))),
      remove: async (kind, id) => editEntryRows(records, (rows) => rows.filter((row) => !is(kind, id)(row))),
      copy: async (kind, id, newId, chainIndex) =>
        editEntryRows(records, (rows) => [...rows, ...rows.filter(is(kind, id)).map((row) => ({ ...row, id: newId, chain_index: chainIndex }))]),
    };
  },
});
