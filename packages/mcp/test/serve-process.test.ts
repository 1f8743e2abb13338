/** `ewp serve` as real OS processes driven by the SDK's stdio client, over one SQLite ledger file. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { ok, refused } from './harness.js';
import { extractedView, source, T, verifiedView } from './views.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/ewp-serve-entry.ts', import.meta.url)));
}, 60_000);

async function serve(args: string[]): Promise<Client> {
  const client = new Client({ name: 'ewp-serve-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'pipe' }));
  return client;
}

describe('ewp serve processes on one SQLite ledger', () => {
  it('two writer processes see each other’s writes; a read-only process sees both and cannot write', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-serve-proc-')), 'ledger', 'ewp.sqlite');
    const [a, b] = await Promise.all([serve(['--db', file, '--allow-ingest']), serve(['--db', file, '--allow-ingest'])]);
    await ok(a, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    await ok(b, 'ewp_evidence_view_put', { view: extractedView() });
    expect((await ok(b, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T })).warrant).toMatchObject({ acceptance: 'ACCEPTED' });
    expect((await ok(a, 'ewp_evidence_view_get', { proposition_id: 'P-note' })).view_id).toBe('v1');
    const source = { content_hash: 'h', observed_at: T };
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ok(i % 2 ? a : b, 'ewp_evidence_record', {
          proposition_id: 'P-note',
          evidence: { evidence_id: `e-${i}`, polarity: 'supports', content: 'c', observed_at: T, source },
        }),
      ),
    );
    const reader = await serve(['--db', file]);
    const view = await ok(reader, 'ewp_evidence_view_get', { proposition_id: 'P-note' });
    expect((view.evidence as unknown[]).length).toBe(9);
    expect(await refused(reader, 'ewp_evidence_view_put', { view: extractedView('P-x') })).toBe('EWP_REFUSE_INGEST_ROLE');
    await Promise.all([a.close(), b.close(), reader.close()]);
  });

  it('a repeated read answers from the ledger as it is now: a commit by another process is seen on the next call', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-serve-proc-')), 'ewp.sqlite');
    // The writer is this test process; the server is another process with its own handle on the file.
    const writer = new SqliteEvidenceStore(file);
    await writer.put(verifiedView());
    const reader = await serve(['--db', file]);
    const args = { proposition_id: 'P-win', evaluated_at: T };
    const first = await ok(reader, 'ewp_warrant_now', args);
    expect(first).toMatchObject({ view_id: 'v-ver', warrant: { conflict: 'NONE' } });
    // Asked again with nothing committed in between: the same answer.
    expect(await ok(reader, 'ewp_warrant_now', args)).toEqual(first);
    expect((await ok(reader, 'ewp_evidence_view_get', { proposition_id: 'P-win' })).view_id).toBe('v-ver');
    for (const [i, viewId] of ['v-2', 'v-3'].entries()) {
      const base = verifiedView('P-win', viewId);
      const opposing = { evidence_id: `e-opp-${i}`, polarity: 'opposes', source: source(`chat-${i}`, 'extract'), content: 'not 2022', observed_at: T };
      await writer.put({ ...base, evidence: [...base.evidence, opposing] });
      const after = await ok(reader, 'ewp_warrant_now', args);
      expect(after).toMatchObject({ view_id: viewId, warrant: { conflict: 'OPEN' } });
      expect(after.opposing_evidence_ids).toEqual([`e-opp-${i}`]);
      expect((await ok(reader, 'ewp_evidence_view_get', { proposition_id: 'P-win' })).view_id).toBe(viewId);
    }
    await reader.close();
    await writer.close();
  });

  it('a read-only server on a missing ledger does not start and creates nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-serve-proc-')), 'none', 'ewp.sqlite');
    await expect(serve(['--db', file])).rejects.toThrow();
    expect(existsSync(join(file, '..'))).toBe(false);
  });
});
