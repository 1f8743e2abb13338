/**
 * How a deployment grows (docs/scaling.md), on the real server: a real PostgreSQL role that may only
 * read (USAGE on the schema, SELECT on its tables) reads the ledger and gets a typed refusal on every
 * write, opened read-only or not; one caller's pool serves one ledger per tenant, each its own chain.
 */
import { randomBytes } from 'node:crypto';
import { EwpError } from '@ewp/core';
import { StoreUnavailableError } from '@ewp/ledger';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceRecord, seedView } from '../../ledger/test-support/fault-views.js';
import { ident } from '../src/postgres-schema.js';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore, type PostgresEvidenceStore } from '../src/postgres-store.js';

const run = randomBytes(4).toString('hex');
const schema = `ewp_ro_${run}`;
const role = `ewp_reader_${run}`;
const readerUrl = () => {
  const url = new URL(defaultConnectionString());
  url.username = role;
  url.password = '';
  return url.toString();
};

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: defaultConnectionString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const owner = await openPostgresStore({ schema, maxConnections: 1 });
  await owner.put(seedView('P-1'), { entries: [{ kind: 'note.made', id: 'n1', subjects: ['P-1'], body: { by: 'owner' } }] });
  await owner.close();
  // A role that may log in and read this one ledger, nothing more.
  await admin(`CREATE ROLE ${ident(role)} LOGIN`);
  await admin(`GRANT USAGE ON SCHEMA ${ident(schema)} TO ${ident(role)}; GRANT SELECT ON ALL TABLES IN SCHEMA ${ident(schema)} TO ${ident(role)}`);
});

afterAll(async () => {
  await dropPostgresLedger(schema);
  await admin(`DROP OWNED BY ${ident(role)}; DROP ROLE IF EXISTS ${ident(role)}`);
});

/** The write is refused with `StoreUnavailableError('read_only')`, the code every caller checks. */
async function expectReadOnlyRefusal(write: Promise<unknown>): Promise<void> {
  const error = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StoreUnavailableError.isInstance(error)).toBe(true);
  expect(EwpError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'read_only' });
}

describe('a read-only PostgreSQL role', () => {
  let reader: PostgresEvidenceStore;
  beforeAll(async () => {
    reader = await openPostgresStore({ connectionString: readerUrl(), schema, readOnly: true, maxConnections: 2 });
  });
  afterAll(() => reader.close());

  it('reads views, lists, entries and verifies the chain', async () => {
    expect((await reader.get('P-1'))?.evidence.map((e) => e.evidence_id)).toEqual(['e0']);
    expect((await reader.listPropositions()).map((p) => p.proposition_id)).toEqual(['P-1']);
    expect((await reader.readEntries({ subject: 'P-1' })).map((e) => e.id)).toEqual(['n1']);
    expect(await reader.verifyChain()).toMatchObject({ ok: true, length: 3 });
  });

  it('is refused every write, typed, when opened read-only', async () => {
    await expectReadOnlyRefusal(reader.put(seedView('P-2')));
    await expectReadOnlyRefusal(reader.appendEntries([{ kind: 'note.made', id: 'n2', body: {} }]));
  });

  it('opened for writing by mistake, the server refuses the write lock: the same typed refusal, nothing written', async () => {
    const misconfigured = await openPostgresStore({ connectionString: readerUrl(), schema, maxConnections: 1 });
    try {
      await expectReadOnlyRefusal(misconfigured.put(seedView('P-2')));
      await expectReadOnlyRefusal(misconfigured.extend('P-1', [{ kind: 'evidence', record: evidenceRecord('e1') }]));
      await expectReadOnlyRefusal(misconfigured.appendEntries([{ kind: 'note.made', id: 'n2', body: {} }]));
      expect(await misconfigured.verifyChain()).toMatchObject({ ok: true, length: 3 });
    } finally {
      await misconfigured.close();
    }
  });

  it('cannot create a ledger: opening a missing schema for writing is the same typed refusal', async () => {
    await expectReadOnlyRefusal(openPostgresStore({ connectionString: readerUrl(), schema: `${schema}_new`, maxConnections: 1 }));
  });
});

describe('one ledger per tenant through one caller-owned pool', () => {
  it('keeps each tenant in its own schema and chain; close() leaves the pool to its owner', async () => {
    const pool = new pg.Pool({ connectionString: defaultConnectionString(), max: 2 });
    const tenants = ['a', 'b', 'c'].map((t) => `ewp_tenant_${run}_${t}`);
    try {
      const stores = await Promise.all(tenants.map((s) => openPostgresStore({ pool, schema: s })));
      await Promise.all(stores.map((store, i) => store.put({ ...seedView('P-shared'), view_id: `tenant-${i}` })));
      for (const [i, store] of stores.entries()) {
        expect((await store.listSnapshots('P-shared')).map((s) => s.view_id)).toEqual([`tenant-${i}`]);
        expect(await store.verifyChain()).toMatchObject({ ok: true, length: 2 });
      }
      for (const store of stores) await store.close();
      // The pool is the caller's: still open after every store closed.
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
      for (const s of tenants) await dropPostgresLedger(s);
    }
  });
});
