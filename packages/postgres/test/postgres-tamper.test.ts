/**
 * The table tamper suite shared with SQLite, on the real PostgreSQL server: every column of every row
 * kind changed, every row deleted, every row copied, behind the store's back (foreign keys off, as a
 * superuser could), one edit at a time.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runTableTamperSuite } from '../../ledger/test-support/table-tamper-suite.js';
import { ident } from '../src/postgres-schema.js';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore } from '../src/postgres-store.js';

const run = randomBytes(4).toString('hex');
let n = 0;
/** PostgreSQL's type id of bigint: the raw rows give integers as numbers, like SQLite's. */
const INT8 = 20;

runTableTamperSuite({
  name: 'postgres',
  tables: [
    { name: 'meta', key: ['key'] },
    { name: 'bindings', key: ['owner', 'kind', 'id'] },
    { name: 'snapshots', key: ['seq'] },
    { name: 'chain', key: ['idx'] },
    { name: 'entries', key: ['kind', 'id'] },
    { name: 'entry_subjects', key: ['subject', 'chain_index'] },
  ],
  snapshots: 'snapshots',
  placeholder: (i) => `$${i}`,
  create: async () => {
    const schema = `ewp_tamper_${run}_${++n}`;
    const store = await openPostgresStore({ schema, maxConnections: 1 });
    const client = new pg.Client({ connectionString: defaultConnectionString() });
    await client.connect();
    // Table names resolve in the ledger's schema; temporary tables in the session's own.
    await client.query(`SET search_path TO ${ident(schema)}`);
    // Foreign keys are triggers: a superuser's edit can skip them.
    await client.query('SET session_replication_role = replica');
    return {
      store,
      ledger: {
        openReadOnly: () => openPostgresStore({ schema, readOnly: true, maxConnections: 1 }),
        exec: async (sql, params = []) => {
          await client.query(sql, params as unknown[]);
        },
        rows: async (table) => {
          const r = await client.query(`SELECT * FROM ${table}`);
          const ints = r.fields.filter((f) => f.dataTypeID === INT8).map((f) => f.name);
          return r.rows.map((row: Record<string, unknown>) => {
            for (const c of ints) if (row[c] !== null) row[c] = Number(row[c]);
            return row;
          });
        },
        dispose: async () => {
          await client.end();
          await dropPostgresLedger(schema);
        },
      },
    };
  },
});
