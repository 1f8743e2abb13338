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
  // One changed byte in the record that carries the entry's row (an ingest's commit record carries its entry rows).
  tamperEntry: async (store, _kind, id) => {
    const records = (store.records as MemoryCommitRecordStore).records;
    const record = records.find((r) => r.family === 'commit' && r.body.includes(id));
    if (record !== undefined) record.body = record.body.replace('blocked', 'blockee');
  },
});
