import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonFileEvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { admitView, writeViews } from './write-path.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-write-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = (origin: string) => ({
  source_id: `s-${origin}`,
  lineage_id: 'L',
  origin_type: origin,
  origin_locator: 'loc',
  snapshot_id: 'snap',
  content_hash: 'sha256:x',
  observed_at: '2026-01-01T00:00:00Z',
});
const view = (id: string, origin = 'extract', text = 'the sky is blue') => ({
  proposition_id: id,
  view_id: 'v1',
  assertions: [
    {
      assertion_id: 'a1',
      proposition_id: id,
      text,
      asserted_by: 'agent',
      assertion_confidence: 0.5,
      source: source(origin),
      asserted_at: '2026-01-01T00:00:00Z',
    },
  ],
});
const untrusted = { attested: false, trustedOrigins: true };

describe('admitView', () => {
  it('decodes once into a frozen view, and refuses a bad one with the decoder code and path', () => {
    const admitted = admitView(view('P-1'), untrusted);
    expect(Object.isFrozen(admitted)).toBe(true);
    expect(Object.isFrozen(admitted.assertions[0]?.source)).toBe(true);
    expect(() => admitView({ proposition_id: 'P', view_id: 'v', degraded: 'yes' }, untrusted)).toThrow(
      expect.objectContaining({ code: 'WRONG_TYPE', path: '$.degraded' }),
    );
  });

  it('applies the one attestation rule, in each surface’s words', () => {
    const trusted = view('P-2', 'tool');
    expect(() => admitView(trusted, untrusted)).toThrow(
      expect.objectContaining({ code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN', path: '$.ingest_attestation' }),
    );
    const cli = { ...untrusted, surface: { how: 'pass --attest-trusted-origins', path: 'record' } };
    expect(() => admitView(trusted, cli)).toThrow(
      expect.objectContaining({
        code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
        path: '$.assertions[0].source.origin_type',
        message: expect.stringContaining('--attest-trusted-origins'),
      }),
    );
    expect(() => admitView(trusted, { attested: true, trustedOrigins: false })).toThrow(
      expect.objectContaining({ code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN' }),
    );
    expect(admitView(trusted, { attested: true, trustedOrigins: true }).proposition_id).toBe('P-2');
  });
});

describe('writeViews', () => {
  it('writes batches, falls back view by view when one view refuses, one outcome per view in order', async () => {
    for (const store of [new MemoryEvidenceStore(), new JsonFileEvidenceStore(join(dir, 'j1'))]) {
      await store.put(view('P-taken'));
      const views = [view('P-a'), view('P-taken', 'extract', 'other content under a stored id'), view('P-b'), view('P-taken')].map((v) =>
        admitView(v, untrusted),
      );
      const { outcomes, failure } = await writeViews(store, views, { batchSize: 3 });
      expect(failure).toBeUndefined();
      expect(outcomes.map((o) => o.result?.status ?? o.refusal?.code)).toEqual(['stored', 'EWP_REFUSE_IMMUTABLE_RECORD', 'stored', 'unchanged']);
      expect(outcomes.map((o) => o.view.proposition_id)).toEqual(['P-a', 'P-taken', 'P-b', 'P-taken']);
      expect((await store.listPropositions()).map((p) => p.proposition_id).sort()).toEqual(['P-a', 'P-b', 'P-taken']);
    }
  });

  it('stops at the first failure of the ledger itself and says which views it wrote', async () => {
    const store = new MemoryEvidenceStore();
    const first = await writeViews(store, [admitView(view('P-1'), untrusted)]);
    expect(first.outcomes).toHaveLength(1);
    await store.close();
    const { outcomes, failure } = await writeViews(
      store,
      [view('P-2'), view('P-3')].map((v) => admitView(v, untrusted)),
      { batchSize: 1 },
    );
    expect(outcomes).toEqual([]);
    expect(failure).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
  });
});
