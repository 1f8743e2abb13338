import { MemoryEvidenceStore } from '@ewp/ledger';
import { runMemoryConformance } from './testing/index.js';

runMemoryConformance({
  name: 'memory',
  create: () => new MemoryEvidenceStore(),
  // The rows are plain objects a test can reach: one changed byte of the entry's stored body.
  tamperEntry: async (store, kind, id) => {
    const row = store.rows.entries.find((r) => r.kind === kind && r.id === id);
    if (row !== undefined) row.body = row.body.replace('blocked', 'blockee');
  },
});
