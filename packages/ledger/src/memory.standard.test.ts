import { runStoreConformance } from '@ewp/conformance/store-suite';
import { MemoryEvidenceStore } from './memory-store.js';

runStoreConformance({
  name: 'memory',
  create: () => new MemoryEvidenceStore(),
  capabilities: MemoryEvidenceStore.CAPABILITIES,
  // The rows are plain objects the test can reach (`store.rows`).
  tamperEntries: (store) => {
    const rows = store.rows.entries;
    const find = (kind: string, id: string) => rows.findIndex((r) => r.kind === kind && r.id === id);
    return {
      setBody: async (kind, id, body) => {
        const row = rows[find(kind, id)];
        if (row !== undefined) row.body = body;
      },
      remove: async (kind, id) => {
        rows.splice(find(kind, id), 1);
      },
      copy: async (kind, id, newId, chainIndex) => {
        const row = rows[find(kind, id)];
        if (row !== undefined) rows.push({ ...row, id: newId, chain_index: chainIndex });
      },
    };
  },
});
