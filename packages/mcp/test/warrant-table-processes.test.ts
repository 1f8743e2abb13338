/**
 * The warrant table across processes: several `ewp serve` readers on one ledger (SQLite file, PostgreSQL
 * schema) keep warrants by lookup, and a writer in another process commits; every reader's next answer is
 * from the new snapshot (the table answers only under the ledger revision it was filled at). On
 * PostgreSQL the readers learn of commits from notifications, and from the chain head while their
 * listener connection is down.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { ok } from './harness.js';
import { source, T, verifiedView } from './views.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/ewp-serve-entry.ts', import.meta.url)));
}, 60_000);

async function serve(args: string[]): Promise<Client> {
  const client = new Client({ name: 'ewp-warrant-table-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'pipe' }));
  return client;
}

/** The part of pg's client used here. */
interface SqlClient {
  connect(): Promise<unknown>;
  query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}
/** The driver, from the package that depends on it (this one does not). */
const { Client: PgClient } = createRequire(fileURLToPath(new URL('../../postgres/package.json', import.meta.url)))('pg') as {
  Client: new (config: { connectionString: string }) => SqlClient;
};
const PG_URL = `postgres://${process.env.PGUSER ?? 'postgres'}@127.0.0.1:5432/test`;
const pgSchemas: string[] = [];
const pgSchema = () => {
  const schema = `ewp_table_${process.pid}_${Date.now()}_${pgSchemas.length}`;
  pgSchemas.push(schema);
  return schema;
};

async function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new PgClient({ connectionString: PG_URL });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  for (const schema of pgSchemas) await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});

const LEDGERS: [string, () => string[]][] = [
  ['one SQLite file', () => ['--db', join(mkdtempSync(join(tmpdir(), 'ewp-table-proc-')), 'ewp.sqlite')]],
  ['one PostgreSQL schema', () => ['--pg', `${PG_URL}?schema=${pgSchema()}`]],
];

describe.each(LEDGERS)('serve processes on %s', (_, ledger) => {
  it('a writer process commits; each reader process answers from the new snapshot on its next call', async () => {
    const at = ledger();
    const writer = await serve([...at, '--allow-ingest']);
    await ok(writer, 'ewp_evidence_view_put', { view: verifiedView('P-win', 'v-1'), ingest_attestation: true });
    const readers = await Promise.all([serve(at), serve(at), serve(at)]);
    const args = { proposition_id: 'P-win', evaluated_at: T };
    // Twice each: the second answer is a lookup in the reader's table.
    for (const r of readers) {
      const first = await ok(r, 'ewp_warrant_now', args);
      expect(first).toMatchObject({ view_id: 'v-1', warrant: { conflict: 'NONE', acceptance: 'ACCEPTED' } });
      expect(await ok(r, 'ewp_warrant_now', { ...args, evaluated_at: '2026-09-21T22:00:00Z' })).toMatchObject({ view_id: 'v-1' });
      expect(await ok(r, 'ewp_warrant_now', args)).toEqual(first);
    }
    for (const [i, viewId] of ['v-2', 'v-3', 'v-4', 'v-5'].entries()) {
      const base = verifiedView('P-win', viewId);
      const opposing = { evidence_id: `e-opp-${i}`, polarity: 'opposes', source: source(`chat-${i}`, 'extract'), content: 'not 2022', observed_at: T };
      await ok(writer, 'ewp_evidence_view_put', { view: { ...base, evidence: [...base.evidence, opposing] }, ingest_attestation: true });
      for (const r of readers) {
        const after = await ok(r, 'ewp_warrant_now', args);
        expect(after).toMatchObject({ view_id: viewId, warrant: { conflict: 'OPEN' } });
        expect(after.opposing_evidence_ids).toEqual([`e-opp-${i}`]);
        // Another T in the same piece: still the new snapshot.
        expect(await ok(r, 'ewp_warrant_now', { ...args, evaluated_at: '2026-09-21T22:00:00Z' })).toMatchObject({ view_id: viewId });
      }
    }
    await Promise.all([writer.close(), ...readers.map((r) => r.close())]);
  });
});

/** The server backends listening for `schema`'s commits: each is named after its channel, `ewp:<schema>`. */
const LISTENERS = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle' AND application_name = $1";

describe('serve processes on one PostgreSQL schema, their listener connections terminated', () => {
  it('each reader answers from the next snapshot through the chain head, then listens again', async () => {
    const schema = pgSchema();
    const at = ['--pg', `${PG_URL}?schema=${schema}`];
    const listen = [`ewp listener ewp:${schema}`];
    const writer = await serve([...at, '--allow-ingest']);
    await ok(writer, 'ewp_evidence_view_put', { view: verifiedView('P-win', 'v-1'), ingest_attestation: true });
    const readers = await Promise.all([serve(at), serve(at), serve(at)]);
    const args = { proposition_id: 'P-win', evaluated_at: T };
    const readAll = async (viewId: string) => {
      for (const r of readers) expect(await ok(r, 'ewp_warrant_now', args)).toMatchObject({ view_id: viewId });
    };
    /** Read until every reader's listener is confirmed on the server (a reader starts it at its first read). */
    const allListening = async (viewId: string) => {
      for (let i = 0; i < 500 && (await sql(LISTENERS, listen)).length < readers.length; i += 1) {
        await readAll(viewId);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await sql(LISTENERS, listen)).toHaveLength(readers.length);
      await readAll(viewId);
    };
    const commit = (viewId: string, i: number) => {
      const base = verifiedView('P-win', viewId);
      const opposing = { evidence_id: `e-opp-${i}`, polarity: 'opposes', source: source(`chat-${i}`, 'extract'), content: 'not 2022', observed_at: T };
      return ok(writer, 'ewp_evidence_view_put', { view: { ...base, evidence: [...base.evidence, opposing] }, ingest_attestation: true });
    };

    await allListening('v-1');
    await commit('v-2', 2);
    await readAll('v-2');

    // pg_terminate_backend(pid, timeout) returns once each backend is gone.
    const killed = await sql<{ done: boolean }>(`SELECT pg_terminate_backend(pid, 5000) AS done FROM (${LISTENERS}) l`, listen);
    expect(killed.map((k) => k.done)).toEqual(readers.map(() => true));
    await commit('v-3', 3);
    await readAll('v-3');
    // Twice: the second answer is a lookup under the chain head's revision.
    await readAll('v-3');

    await allListening('v-3');
    await commit('v-4', 4);
    await readAll('v-4');
    await Promise.all([writer.close(), ...readers.map((r) => r.close())]);
  });
});
