import { randomBytes } from 'node:crypto';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import { dropPostgresLedger, openPostgresStore, PostgresEvidenceStore } from './postgres-store.js';

const run = randomBytes(4).toString('hex');
let n = 0;

runStoreConformance({
  name: 'postgres',
  create: () => openPostgresStore({ schema: `ewp_std_${run}_${++n}`, maxConnections: 2 }),
  capabilities: PostgresEvidenceStore.CAPABILITIES,
  reopen: async (store) => {
    await store.close();
    return openPostgresStore({ schema: store.schema, maxConnections: 2 });
  },
  openReadOnly: (store) => openPostgresStore({ schema: store.schema, readOnly: true, maxConnections: 1 }),
  destroy: (store) => dropPostgresLedger(store.schema),
});
