/** Over a real SQLite ledger: read-only serving, and two clients with their own handles on one file. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { describe, expect, it } from 'vitest';
import { connect, ok, refused } from './harness.js';
import { extractedView, T, verifiedView } from './views.js';

function ledgerPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'ewp-mcp-sqlite-')), 'ewp.sqlite');
}

describe('a SQLite ledger', () => {
  it('two clients, each with its own handle on one file, see each other’s writes', async () => {
    const file = ledgerPath();
    const storeA = new SqliteEvidenceStore(file);
    const storeB = new SqliteEvidenceStore(file);
    const a = await connect({ ingest: true, store: storeA });
    const b = await connect({ ingest: true, store: storeB });
    await ok(a.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    expect((await ok(b.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T })).warrant).toMatchObject({ acceptance: 'ACCEPTED' });
    const source = { content_hash: 'h', observed_at: T };
    await ok(b.client, 'ewp_evidence_record', {
      proposition_id: 'P-win',
      evidence: { evidence_id: 'e-b', polarity: 'opposes', content: 'from b', observed_at: T, source },
    });
    const seenByA = await ok(a.client, 'ewp_memory_context', { proposition_id: 'P-win', evaluated_at: T });
    expect(seenByA.opposing_evidence_ids).toEqual(['e-b']);
    expect((seenByA.warrant as { conflict: string }).conflict).toBe('OPEN');
    await Promise.all([a.close(), b.close()]);
    await Promise.all([storeA.close(), storeB.close()]);
  });

  it('served read-only: reads work, writes are refused and nothing changes', async () => {
    const file = ledgerPath();
    const writable = new SqliteEvidenceStore(file);
    await writable.put(extractedView());
    await writable.close();

    const readOnly = new SqliteEvidenceStore(file, { readOnly: true });
    const reader = await connect({ ingest: false, store: readOnly });
    expect((await ok(reader.client, 'ewp_evidence_view_get', { proposition_id: 'P-note' })).view_id).toBe('v1');
    expect(await refused(reader.client, 'ewp_evidence_view_put', { view: extractedView('P-other') })).toBe('EWP_REFUSE_INGEST_ROLE');
    // Even a server misconfigured with the role cannot write through a read-only handle.
    const misconfigured = await connect({ ingest: true, store: readOnly });
    expect(await refused(misconfigured.client, 'ewp_evidence_view_put', { view: extractedView('P-other') })).toBe('EWP_REFUSE_LEDGER_UNAVAILABLE');
    expect((await readOnly.listPropositions({})).map((p) => p.proposition_id)).toEqual(['P-note']);
    await Promise.all([reader.close(), misconfigured.close()]);
    await readOnly.close();
  });
});
