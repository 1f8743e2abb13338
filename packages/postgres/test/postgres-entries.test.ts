/**
 * Ledger entries on PostgreSQL ledgers made before entries existed (no entry tables): they open and
 * verify as before, read-only handles read no entries, and the first writable open adds the tables.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { ident } from '../src/postgres-schema.js';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore } from '../src/postgres-store.js';

const run = randomBytes(4).toString('hex');
let n = 0;
const made: string[] = [];
afterAll(async () => {
  for (const schema of made) await dropPostgresLedger(schema);
});

async function sql(text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: defaultConnectionString() });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** A ledger with one snapshot and the entry tables dropped: the shape of a schema made before entries. */
async function oldLedger(): Promise<string> {
  const schema = `ewp_old_${run}_${++n}`;
  made.push(schema);
  const store = await openPostgresStore({ schema, maxConnections: 1 });
  await store.put(seedView('P-1'));
  await store.close();
  await sql(`DROP TABLE ${ident(schema)}.entries; DROP TABLE ${ident(schema)}.entry_subjects;`);
  return schema;
}

const entryTables = async (schema: string) =>
  (
    (await sql(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}' AND table_name LIKE 'entr%' ORDER BY table_name`)) as {
      table_name: string;
    }[]
  )
    .map((r) => r.table_name)
    .join(',');

describe('postgres ledgers made before entries', () => {
  it('open read-only, verify and read no entries, without gaining tables', async () => {
    const schema = await oldLedger();
    const ro = await openPostgresStore({ schema, readOnly: true, maxConnections: 1 });
    expect(await ro.verifyChain()).toMatchObject({ ok: true, length: 2 });
    expect(await ro.readEntries()).toEqual([]);
    expect(await ro.readEntries({ subject: 'P-1' })).toEqual([]);
    await ro.close();
    expect(await entryTables(schema)).toBe('');
  });

  it('gain the entry tables on a writable open, and take entries after their snapshots', async () => {
    const schema = await oldLedger();
    const store = await openPostgresStore({ schema, maxConnections: 1 });
    expect(await entryTables(schema)).toBe('entries,entry_subjects');
    expect(await store.appendEntries([{ kind: 'memory.store', id: 'm1', subjects: ['P-1'], body: { n: 1 } }])).toEqual([
      { status: 'stored', kind: 'memory.store', id: 'm1', chain_index: 2 },
    ]);
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 3 });
    await store.close();
  });

  it('refuses an entry id or subject holding U+0000 with EWP_REFUSE_UNSTORABLE_TEXT, and writes nothing', async () => {
    const store = await openPostgresStore({ schema: `ewp_old_${run}_${++n}`, maxConnections: 1 });
    made.push(store.schema);
    for (const entry of [
      { kind: 'memory.store', id: 'a\u0000b', body: {} },
      { kind: 'memory.store', id: 'ok', subjects: ['P\u0000'], body: {} },
    ]) {
      await expect(store.appendEntries([entry])).rejects.toMatchObject({ code: 'EWP_REFUSE_UNSTORABLE_TEXT' });
    }
    expect(await store.readEntries()).toEqual([]);
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 0 });
    await store.close();
  });
});
