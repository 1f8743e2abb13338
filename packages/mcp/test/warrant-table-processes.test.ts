/**
 * The warrant table across processes: several `ewp serve` readers on one ledger (SQLite file, PostgreSQL
 * schema) keep warrants by lookup, and a writer in another process commits; every reader's next answer is
 * from the new snapshot (the table answers only under the ledger revision it was filled at).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
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

const LEDGERS: [string, () => string[]][] = [
  ['one SQLite file', () => ['--db', join(mkdtempSync(join(tmpdir(), 'ewp-table-proc-')), 'ewp.sqlite')]],
  ['one PostgreSQL schema', () => ['--pg', `postgres://${process.env.PGUSER ?? 'postgres'}@127.0.0.1:5432/test?schema=ewp_table_${process.pid}_${Date.now()}`]],
];

describe.each(LEDGERS)('serve processes on %s', (_, ledger) => {
  it('a writer process commits; each reader process answers from the new snapshot on its next call', async () => {
    const at = ledger();
    const writer = await serve([...at, '--allow-ingest']);
    await ok(writer, 'ewp_evidence_view_put', { view: verifiedView('P-win', 'v-1'), ingest_attestation: true });
    const readers = await Promise.all([serve(at), serve(at)]);
    const args = { proposition_id: 'P-win', evaluated_at: T };
    // Twice each: the second answer is a lookup in the reader's table.
    for (const r of readers) {
      const first = await ok(r, 'ewp_warrant_now', args);
      expect(first).toMatchObject({ view_id: 'v-1', warrant: { conflict: 'NONE', acceptance: 'ACCEPTED' } });
      expect(await ok(r, 'ewp_warrant_now', { ...args, evaluated_at: '2026-09-21T22:00:00Z' })).toMatchObject({ view_id: 'v-1' });
      expect(await ok(r, 'ewp_warrant_now', args)).toEqual(first);
    }
    for (const [i, viewId] of ['v-2', 'v-3'].entries()) {
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
