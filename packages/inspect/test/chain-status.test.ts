/**
 * The audit chain's status: verified in a worker thread while other requests are answered, one
 * verification per ledger revision, and `fresh=1` unable to start verifications side by side.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { describe, expect, it } from 'vitest';
import { ChainVerificationError, InspectorApi, serveInspector, verifyChainInWorker } from '../src/index.js';
import { quickstartViews, sqliteLedger } from './ledgers.js';

/** The built SQLite store, which a worker thread can import without a TypeScript step. */
const SQLITE_MODULE = new URL('../../sqlite/dist/index.js', import.meta.url).href;

function note(i: number) {
  const source = {
    source_id: `s-${i}`,
    lineage_id: `L-${i}`,
    origin_type: 'extract',
    origin_locator: `loc:${i}`,
    snapshot_id: `snap:${i}`,
    content_hash: `sha256:${i}`,
    observed_at: '2026-09-01T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
  };
  return {
    proposition_id: `P-${i}`,
    view_id: 'v1',
    assertions: [{ assertion_id: 'a1', text: `note ${i}`, asserted_by: 'agent', assertion_confidence: 0.7, source, asserted_at: '2026-09-01T00:00:00+00:00' }],
    evidence: [{ evidence_id: 'e1', polarity: 'supports', source, content: `said ${i}`, observed_at: '2026-09-01T00:00:00+00:00' }],
  };
}

describe('the audit chain off the event loop', () => {
  it('a request is answered while a worker verifies a large ledger', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-chain-')), 'ewp.sqlite');
    const writer = new SqliteEvidenceStore(file);
    for (let at = 0; at < 20_000; at += 1000) await writer.putMany(Array.from({ length: 1000 }, (_, i) => note(at + i)));
    await writer.close();
    const store = new SqliteEvidenceStore(file, { readOnly: true });
    const inspector = await serveInspector({
      store,
      port: 0,
      chainOpener: { module: SQLITE_MODULE, export: 'openSqliteStore', args: [file, { readOnly: true }] },
    });
    try {
      const order: string[] = [];
      const chain = fetch(`${inspector.url}api/chain?fresh=1`)
        .then((r) => r.json())
        .then((body) => {
          order.push('chain');
          return body as { ok: boolean; length: number };
        });
      // Requests sent while the verification runs.
      await new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 3; i++) {
        const page = (await (await fetch(`${inspector.url}api/propositions?limit=5`)).json()) as { items: unknown[] };
        expect(page.items).toHaveLength(5);
        order.push('page');
      }
      const verified = await chain;
      expect(verified.ok).toBe(true);
      expect(verified.length).toBeGreaterThanOrEqual(20_000);
      // The pages did not wait for the verification.
      expect(order).toEqual(['page', 'page', 'page', 'chain']);
    } finally {
      await inspector.close();
      await store.close();
    }
  }, 120_000);

  it('a worker that cannot open the ledger is a typed refusal, not a hang', async () => {
    await expect(
      verifyChainInWorker({ module: SQLITE_MODULE, export: 'openSqliteStore', args: ['/nonexistent/ewp.sqlite', { readOnly: true }] }),
    ).rejects.toSatisfy((e) => ChainVerificationError.isInstance(e) && (e as ChainVerificationError).code === 'EWP_REFUSE_LEDGER_UNAVAILABLE');
  });
});

describe('one verification per ledger revision', () => {
  it('concurrent fresh=1 requests share one verification; an unchanged ledger is not verified again; a commit is', async () => {
    const { store: reader, file } = await sqliteLedger(quickstartViews());
    let verifications = 0;
    const api = new InspectorApi(reader, {
      riskPolicy: {},
      label: 'test',
      loss: { adapter: null, report: null, covered: [] },
      now: () => new Date('2026-09-23T12:00:00Z'),
      verifyChain: async () => {
        verifications += 1;
        return reader.verifyChain();
      },
    });
    const fresh = new URLSearchParams('fresh=1');
    const results = await Promise.all(Array.from({ length: 10 }, () => api.chain(fresh)));
    expect(verifications).toBe(1);
    expect(results.every((r) => r.ok)).toBe(true);
    await api.chain(new URLSearchParams());
    await api.chain(new URLSearchParams());
    expect(verifications).toBe(1);
    // Another process commits: the revision moves, and the next request verifies it.
    const writer = new SqliteEvidenceStore(file);
    await writer.put(note(1));
    await writer.close();
    const after = await api.chain(new URLSearchParams());
    expect(verifications).toBe(2);
    expect(after.length).toBeGreaterThan(results[0]?.length as number);
    await reader.close();
  });
});
