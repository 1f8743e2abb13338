import { randomBytes } from 'node:crypto';
import { dropPostgresLedger, openPostgresStore } from '@ewp/postgres';
import { runMemoryConformance } from './testing/index.js';

const run = randomBytes(4).toString('hex');
let n = 0;

// The server on 127.0.0.1:5432, database `test`; a schema per store, dropped after each test.
runMemoryConformance({
  name: 'postgres',
  create: () => openPostgresStore({ schema: `ewp_mem_${run}_${++n}`, maxConnections: 2 }),
  reopen: async (store) => {
    await store.close();
    return openPostgresStore({ schema: store.schema, maxConnections: 2 });
  },
  destroy: (store) => dropPostgresLedger(store.schema),
  // An UPDATE behind the store's back: one changed byte of the entry row's body.
  tamperEntry: async (store, kind, id) => {
    await store.pool.query(`UPDATE "${store.schema}".entries SET body = replace(body, 'blocked', 'blockee') WHERE kind = $1 AND id = $2`, [kind, id]);
  },
});
