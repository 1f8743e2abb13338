import { runStoreConformance } from '@ewp/conformance/store-suite';
import { CommitRecordEvidenceStore } from './commit-record-evidence-store.js';
import { MemoryCommitRecordStore } from './commit-record-memory-store.js';

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
});
