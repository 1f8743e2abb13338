/** Roles, attestation and inline demotion (docs/spec/store-contract.md §5 "Roles"). */
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { connect, ok, refused } from './harness.js';
import { extractedView, T, verifiedView } from './views.js';

const checkSource = { content_hash: 'sha256:probe', observed_at: '2026-09-21T18:40:00Z' };
const writes: Array<[string, Record<string, unknown>]> = [
  ['ewp_evidence_view_put', { view: extractedView() }],
  ['ewp_evidence_view_put', { proposition_id: 'P-c', conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-c'], status: 'open' }] }],
  ['ewp_evidence_view_put', { proposition_id: 'P-meta', adapter_meta: { note: 'metadata only' } }],
  ['ewp_check_record', { proposition_id: 'P-win', check: { check_id: 'k2', method: 'inference', observed_at: T, result: 'supports', source: checkSource } }],
  [
    'ewp_evidence_record',
    { proposition_id: 'P-win', evidence: { evidence_id: 'e2', polarity: 'supports', content: 'c', observed_at: T, source: checkSource } },
  ],
];

describe('the ingest role', () => {
  it('every write without the role is refused and writes nothing', async () => {
    const store = new MemoryEvidenceStore();
    const reader = await connect({ ingest: false, store });
    for (const [tool, args] of writes) expect(await refused(reader.client, tool, args)).toBe('EWP_REFUSE_INGEST_ROLE');
    expect(await store.listPropositions({})).toEqual([]);
    await reader.close();
  });

  it('the role is checked before the payload: garbage arguments still get EWP_REFUSE_INGEST_ROLE', async () => {
    const reader = await connect({ ingest: false });
    for (const tool of ['ewp_evidence_view_put', 'ewp_check_record', 'ewp_evidence_record']) {
      expect(await refused(reader.client, tool, { view: 'garbage', proposition_id: [], check: 5, evidence: null })).toBe('EWP_REFUSE_INGEST_ROLE');
    }
    await reader.close();
  });

  it('reads work without the role', async () => {
    const store = new MemoryEvidenceStore();
    const writer = await connect({ ingest: true, store });
    await ok(writer.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    const reader = await connect({ ingest: false, store });
    expect((await ok(reader.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T })).warrant).toMatchObject({
      acceptance: 'ACCEPTED',
    });
    await ok(reader.client, 'ewp_evidence_view_get', { proposition_id: 'P-win' });
    await ok(reader.client, 'ewp_memory_context', { proposition_id: 'P-win' });
    await ok(reader.client, 'ewp_list_propositions', {});
    await ok(reader.client, 'ewp_may_act', { proposition_id: 'P-win', action: { risk: 'low', reversible: true } });
    await Promise.all([writer.close(), reader.close()]);
  });
});

describe('attestation of trusted origins', () => {
  it('needs ingest_attestation to be JSON true exactly', async () => {
    const c = await connect({ ingest: true });
    for (const attestation of [undefined, 'true', 1, [1], {}, false, null]) {
      expect(await refused(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: attestation })).toBe(
        'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
      );
    }
    expect(await c.store.get('P-win')).toBeUndefined();
    await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    await c.close();
  });

  it('applies to incremental records too', async () => {
    const c = await connect({ ingest: true });
    await ok(c.client, 'ewp_evidence_view_put', { view: extractedView() });
    const trusted = { ...checkSource, origin_type: 'tool' };
    const check = { check_id: 'k1', method: 'tool_observation', observed_at: T, result: 'supports', source: trusted };
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-note', check })).toBe('EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN');
    const evidence = { evidence_id: 'e9', polarity: 'supports', content: 'c', observed_at: T, source: { ...trusted, origin_type: 'document' } };
    expect(await refused(c.client, 'ewp_evidence_record', { proposition_id: 'P-note', evidence })).toBe('EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN');
    expect((await c.store.listSnapshots('P-note')).length).toBe(1);
    await ok(c.client, 'ewp_check_record', { proposition_id: 'P-note', check, ingest_attestation: true });
    await c.close();
  });

  it('an untrusted look-alike origin needs no attestation and confers nothing', async () => {
    const c = await connect({ ingest: true });
    await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView('P-win', 'v-ver', 'Tool') });
    const w = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T });
    expect(w.warrant).toMatchObject({ verification: 'INDIRECT', acceptance: 'TENTATIVE' });
    await c.close();
  });
});

describe('inline views', () => {
  it('are demoted for anonymous callers: a tool-verified copy reads INDIRECT / TENTATIVE', async () => {
    const c = await connect({ ingest: false });
    const w = await ok(c.client, 'ewp_warrant_now', { view: verifiedView(), evaluated_at: T, ingest_attestation: true });
    expect(w.warrant).toMatchObject({ verification: 'INDIRECT', acceptance: 'TENTATIVE' });
    expect(w.inline_origins_demoted).toEqual(['tool']);
    await c.close();
  });

  it('are demoted for the ingest role without attestation, and kept with it', async () => {
    const c = await connect({ ingest: true });
    const demoted = await ok(c.client, 'ewp_warrant_now', { view: verifiedView(), evaluated_at: T });
    expect(demoted.warrant).toMatchObject({ verification: 'INDIRECT' });
    const kept = await ok(c.client, 'ewp_warrant_now', { view: verifiedView(), evaluated_at: T, ingest_attestation: true });
    expect(kept.warrant).toMatchObject({ verification: 'EXTERNAL', acceptance: 'ACCEPTED' });
    expect(kept).not.toHaveProperty('inline_origins_demoted');
    await c.close();
  });

  it('with no trusted origin report an empty demotion list', async () => {
    const c = await connect({ ingest: false });
    const w = await ok(c.client, 'ewp_warrant_now', { view: extractedView(), evaluated_at: T });
    expect(w.inline_origins_demoted).toEqual([]);
    await c.close();
  });
});

describe('lone surrogates in ids', () => {
  it('get LONE_SURROGATE, not a ledger failure', async () => {
    const c = await connect({ ingest: true });
    await ok(c.client, 'ewp_evidence_view_put', { view: extractedView() });
    const lone = 'P-\uD800x';
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: lone, evaluated_at: T })).toBe('LONE_SURROGATE');
    expect(await refused(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-note', view_id: 'v\uDC00' })).toBe('LONE_SURROGATE');
    expect(await refused(c.client, 'ewp_memory_context', { proposition_id: lone })).toBe('LONE_SURROGATE');
    const source = { content_hash: 'h', observed_at: T };
    expect(
      await refused(c.client, 'ewp_evidence_record', {
        proposition_id: 'P-note',
        evidence: { evidence_id: 'e\uD800', polarity: 'supports', content: 'c', observed_at: T, source },
      }),
    ).toBe('LONE_SURROGATE');
    await c.close();
  });
});
