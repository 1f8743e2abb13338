import { randomBytes } from 'node:crypto';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import pg from 'pg';
import { ident } from './postgres-schema.js';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore, PostgresEvidenceStore } from './postgres-store.js';

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
  openSecond: (store) => openPostgresStore({ schema: store.schema, maxConnections: 2 }),
  // Plain SQL through a connection of its own, behind the store's back.
  tamperEntries: (store) => {
    const entries = `${ident(store.schema)}.entries`;
    const exec = async (sql: string, params: unknown[]) => {
      const client = new pg.Client({ connectionString: defaultConnectionString() });
      await client.connect();
      try {
        await client.query(sql, params);
      } finally {
        await client.end();
      }
    };
    return {
      setBody: (kind, id, body) => exec(`UPDATE ${entries} SET body = $1 WHERE kind = $2 AND id = $3`, [body, kind, id]),
      remove: (kind, id) => exec(`DELETE FROM ${entries} WHERE kind = $1 AND id = $2`, [kind, id]),
      copy: (kind, id, newId, chainIndex) =>
        exec(
          `INSERT INTO ${entries} (kind, id, chain_index, subjects, body, committed_at) SELECT kind, $1, $2, subjects, body, committed_at FROM ${entries} WHERE kind = $3 AND id = $4`,
          [newId, chainIndex, kind, id],
        ),
    };
  },
  destroy: (store) => dropPostgresLedger(store.schema),
});
