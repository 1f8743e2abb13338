/**
 * Salience of the memory tools survives a server restart when the ledger is a file: `ewp serve --db`
 * hands the server the side file the CLI verbs use (`<db>.salience.jsonl`, chosen by
 * `openSalienceStore`), over the official MCP client on Streamable HTTP and the REST routes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { openSalienceStore, saliencePathFor } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMORY_REST_ROUTES, startEwpHttpServer } from '../src/index.js';
import { ok } from './harness.js';

const TOKEN = 'a-token-of-at-least-thirty-two-bytes-0123';
const dir = mkdtempSync(join(tmpdir(), 'ewp-mcp-salience-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server over a store with the salience store of `location`, and an ingest client connected to it. */
async function serve(store: SqliteEvidenceStore | MemoryEvidenceStore, location: { db?: string }) {
  const salience = openSalienceStore(location);
  const server = await startEwpHttpServer({
    store,
    port: 0,
    ingestToken: TOKEN,
    observers: { operator: { self: true, sources: ['scheduler'] } },
    routes: MEMORY_REST_ROUTES,
    salience,
  });
  const client = new Client({ name: 'ewp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  const recallOverRest = async (query: string) =>
    (
      await fetch(server.url.replace(/\/mcp$/, '/v1/recall'), {
        method: 'POST',
        body: JSON.stringify({ query }),
        headers: { 'content-type': 'application/json' },
      })
    ).json();
  return {
    client,
    recallOverRest,
    // In the order `ewp serve` shuts down: server, salience (flushed), store.
    stop: async () => {
      await client.close();
      await server.close();
      salience.close();
      await store.close();
    },
  };
}

describe('memory salience across a server restart', () => {
  it('a SQLite ledger: the recall count of MCP and REST recalls survives a restart, in <db>.salience.jsonl', async () => {
    const db = join(dir, 'ledger.sqlite');
    const first = await serve(new SqliteEvidenceStore(db), { db });
    const stored = await ok(first.client, 'memory_store', { text: 'The backup job starts at 06:00', epistemic_class: 'observation', source: 'scheduler' });
    const hash = stored.hash as string;
    for (let i = 0; i < 3; i += 1) await ok(first.client, 'memory_recall', { query: 'backup job' });
    expect(((await first.recallOverRest('backup job')) as { rows: { salience: { recall_count: number } }[] }).rows[0]?.salience.recall_count).toBe(4);
    await first.stop();
    expect(existsSync(`${db}.salience.jsonl`)).toBe(true);
    expect(saliencePathFor({ db })).toBe(`${db}.salience.jsonl`);

    const second = await serve(new SqliteEvidenceStore(db), { db });
    try {
      expect(await ok(second.client, 'memory_evidence_show', { hash })).toMatchObject({ salience: { recall_count: 4, energy: 4 } });
      const rows = (await ok(second.client, 'memory_recall', { query: 'backup job' })).rows as { hash: string; salience: { recall_count: number } }[];
      expect(rows[0]).toMatchObject({ hash, salience: { recall_count: 5 } });
    } finally {
      await second.stop();
    }
  });

  it('a ledger in memory keeps salience in memory, with no side file', async () => {
    const store = new MemoryEvidenceStore();
    const first = await serve(store, {});
    const hash = (await ok(first.client, 'memory_store', { text: 'Port 8080 is taken', epistemic_class: 'observation' })).hash as string;
    await ok(first.client, 'memory_recall', { query: 'port taken' });
    expect(await ok(first.client, 'memory_evidence_show', { hash })).toMatchObject({ salience: { recall_count: 1 } });
    await first.stop();
    expect(saliencePathFor({})).toBeUndefined();
  });
});
