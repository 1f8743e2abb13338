import { CommitRecordEvidenceStore, MemoryCommitRecordStore } from '@ewp/ledger';
import { runMemoryConformance } from './testing/index.js';

// The engine on the commit-record protocol (what Mem0, Zep and LangGraph stores use), over in-memory
// records; reopening is a second client on the same records, as a restarted process would be.
runMemoryConformance({
  name: 'commit-records (memory)',
  create: () => new CommitRecordEvidenceStore(new MemoryCommitRecordStore()),
  reopen: async (store) => {
    await store.close();
    return new CommitRecordEvidenceStore(store.records);
  },
  // One changed byte in the record that carries the entry's row (whichever record family the protocol keeps it in).
  tamperEntry: async (store, _kind, id) => {
    const records = (store.records as MemoryCommitRecordStore).records;
    const record = records.find((r) => r.body.includes(id) && r.body.includes('blocked'));
    if (record === undefined) throw new Error(`no stored record carries entry ${id}`);
    record.body = record.body.replace('blocked', 'blockee');
  },
  // A new client on the same records, as `ewp audit verify` in another process would be.
  auditor: async (store) => new CommitRecordEvidenceStore(store.records),
});
