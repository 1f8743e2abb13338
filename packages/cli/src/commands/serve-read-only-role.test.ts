/**
 * `ewp serve --http --pg` on a real PostgreSQL role that may only read (USAGE on the ledger's schema,
 * SELECT on its tables), driven by the official MCP client: reads answer from the ledger, and a write
 * by a client holding the ingest token is refused with the typed read-only refusal, nothing written.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openPostgresStore, type PostgresEvidenceStore } from '@ewp/postgres';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOTE_T, noteView } from '../testing/note-view.js';
import { serveCommand } from './serve.js';

const run = randomBytes(4).toString('hex');
const role = `ewp_serve_reader_${run}`;
const dir = mkdtempSync(join(tmpdir(), 'ewp-serve-ro-'));
const TOKEN = randomBytes(32).toString('hex');
let owner: PostgresEvidenceStore;

beforeAll(async () => {
  owner = await openPostgresStore({ schema: `ewp_serve_ro_${run}`, maxConnections: 1 });
  await owner.put(noteView);
  const s = `"${owner.schema}"`;
  await owner.pool.query(`CREATE ROLE "${role}" LOGIN`);
  await owner.pool.query(`GRANT USAGE ON SCHEMA ${s} TO "${role}"; GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO "${role}"`);
  writeFileSync(join(dir, 'token'), TOKEN, { mode: 0o600 });
});

afterAll(async () => {
  await owner.pool.query(`DROP SCHEMA "${owner.schema}" CASCADE`);
  await owner.pool.query(`DROP OWNED BY "${role}"; DROP ROLE "${role}"`);
  await owner.close();
  rmSync(dir, { recursive: true, force: true });
});

it('reads through the read-only role and refuses a token-holder write with the typed read_only refusal', async () => {
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (chunk) => {
    said += chunk;
  });
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, env: {}, cwd: dir };
  const url = `postgres://${role}@127.0.0.1:5432/test?schema=${owner.schema}`;
  // The ingest token makes the server open the ledger for writing: the role, not the server, refuses.
  const done = serveCommand(['--http', '127.0.0.1:0', '--pg', url, '--ingest-token-file', join(dir, 'token')], io);
  for (let i = 0; i < 1000 && !said.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
  const endpoint = /listening on (\S+)/.exec(said)?.[1];
  expect(endpoint, said).toBeDefined();
  const client = new Client({ name: 'serve-read-only-role-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint as string), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  try {
    const warrant = await client.callTool({ name: 'ewp_warrant_now', arguments: { proposition_id: 'P-note', evaluated_at: NOTE_T } });
    expect(warrant.isError).toBeFalsy();
    expect((warrant.structuredContent as { warrant: { acceptance: string } }).warrant.acceptance).toBe('TENTATIVE');
    const got = await client.callTool({ name: 'ewp_evidence_view_get', arguments: { proposition_id: 'P-note' } });
    expect((got.structuredContent as { view_id: string }).view_id).toBe(noteView.view_id);

    const refused = await client.callTool({ name: 'ewp_evidence_view_put', arguments: { view: { ...noteView, view_id: 'v-by-reader' } } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as { text: string }[])[0]?.text as string)).toMatchObject({
      error: 'EWP_REFUSE_LEDGER_UNAVAILABLE',
      message: expect.stringContaining('no write privilege'),
    });
  } finally {
    await client.close();
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(0);
  }
  expect((await owner.listSnapshots('P-note')).map((s) => s.view_id)).toEqual([noteView.view_id]);
  expect(await owner.verifyChain()).toMatchObject({ ok: true });
});
