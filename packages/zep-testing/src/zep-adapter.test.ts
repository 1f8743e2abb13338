import { canonicalViewText, decodeView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { ZepClient } from '@getzep/zep-cloud';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantZepFacts } from '@ewp/zep/conformance';
import { ImmutableRecordError, StoreUnavailableError } from '@ewp/ledger';
import { ZepAdapter } from '@ewp/zep';
import { startZepGraphServer, type ZepGraphServer } from './index.js';

const fixture = (name: string) => decodeView(adapterFixtures().find((f) => f.name === name)!.raw);

describe('Zep adapter over the official client', () => {
  let server: ZepGraphServer;
  let client: ZepClient;
  let n = 0;
  const adapter = async () => {
    const graphId = `g-${++n}`;
    await client.graph.create({ graphId });
    return new ZepAdapter({ client, graphId });
  };
  beforeAll(async () => {
    server = await startZepGraphServer({ processingDelayMs: 1 });
    client = new ZepClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
  });
  afterAll(() => server.close());

  it('keeps every episode within Zep limits, splits a record over 10 000 characters, and gives claims their own text episode', async () => {
    const zep = await adapter();
    const base = fixture('08-verified-now');
    const big = 'é"\\'.repeat(6000);
    const view = decodeView({ ...base, evidence: [{ ...base.evidence[0]!, content: big }], view_id: 'v-big' });
    expect(await zep.put(view)).toMatchObject({ status: 'stored' });
    const episodes = [...server.episodes.values()].filter((e) => e.graph_id === zep.graphId);
    expect(Math.max(...episodes.map((e) => e.content.length))).toBeLessThanOrEqual(10_000);
    expect(Math.max(...episodes.map((e) => Object.keys(e.metadata).length))).toBeLessThanOrEqual(10);
    expect(episodes.some((e) => typeof e.metadata.ewp_parts === 'number' && e.metadata.ewp_parts > 1)).toBe(true);
    expect(episodes.filter((e) => e.metadata.ewp_part === 0).map((e) => e.content)).toContain(base.assertions[0]!.text);
    expect(canonicalViewText((await zep.get(view.proposition_id))!)).toBe(canonicalViewText(view));
    expect((await zep.verifyChain()).ok).toBe(true);
  });

  it('refuses an invalid view with a typed error naming the field, and adds no episode', async () => {
    const zep = await adapter();
    const view = fixture('08-verified-now');
    const bad = { ...view, checks: [{ ...view.checks[0]!, result: 'Supports' }] };
    await expect(zep.put(bad)).rejects.toMatchObject({ name: 'InvalidEvidenceView', path: '$.checks[0].result' });
    expect([...server.episodes.values()].filter((e) => e.graph_id === zep.graphId)).toEqual([]);
  });

  it('refuses a read after an episode was deleted outside the store, and verifyChain reports it', async () => {
    const zep = await adapter();
    const view = fixture('02-fork-x');
    await zep.put(view);
    const victim = (await zep.rawRecords(view.proposition_id)).find((e) => e.metadata?.ewp_part === 1)!;
    await client.graph.episode.delete(victim.uuid);
    const error = await zep.get(view.proposition_id).catch((e: unknown) => e);
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    expect(await zep.verifyChain()).toMatchObject({ ok: false, not_guaranteed: expect.arrayContaining(['tail_deletion']) });
  });

  it('refuses a read after metadata was re-tagged outside the store', async () => {
    const zep = await adapter();
    const view = fixture('02-fork-x');
    await zep.put(view);
    const victim = (await zep.rawRecords(view.proposition_id)).find((e) => e.metadata?.ewp_part === 1 && e.metadata?.ewp_family === 'row')!;
    await client.graph.episode.update(victim.uuid, { metadata: { ...victim.metadata, ewp_pid: 'P-other' } });
    await expect(zep.get(view.proposition_id)).rejects.toMatchObject({ reason: 'damaged' });
  });

  it('refuses a different snapshot under the same view_id (engine code) and accepts an identical one', async () => {
    const zep = await adapter();
    const view = fixture('08-verified-now');
    await zep.put(view);
    expect(await zep.put(view)).toMatchObject({ status: 'unchanged' });
    const error = await zep.put({ ...view, degraded: true }).catch((e: unknown) => e);
    expect(ImmutableRecordError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_IMMUTABLE_RECORD' });
  });

  it('waits until Zep has processed the episodes before a write returns', async () => {
    const slow = await startZepGraphServer({ processingDelayMs: 20 });
    try {
      const c = new ZepClient({ apiKey: slow.apiKey, baseUrl: slow.baseUrl });
      await c.graph.create({ graphId: 'slow' });
      const zep = new ZepAdapter({ client: c, graphId: 'slow' });
      const view = fixture('08-verified-now');
      await zep.put(view);
      expect([...slow.episodes.values()].every((e) => e.processed)).toBe(true);
      const found = await zep.search(view.proposition_id, view.assertions[0]!.text, { limit: 1 });
      expect(found.assertions.map((a) => a.assertion_id)).toEqual([view.assertions[0]!.assertion_id]);
      const impatient = new ZepAdapter({ client: c, graphId: 'slow', visibilityTimeoutMs: 5 });
      await expect(impatient.put({ ...view, view_id: 'v-late' })).rejects.toMatchObject({ reason: 'lagging' });
    } finally {
      await slow.close();
    }
  });

  it('a search over more records than Zep returns (limit 50) is DEGRADED and lists the rest', async () => {
    const zep = await adapter();
    const view = fixture('01-reinforcement');
    await zep.put(view);
    const found = await zep.search(view.proposition_id, 'X', { limit: 500 });
    expect(found.assertions.length).toBeLessThanOrEqual(50);
    expect(found.omitted_sources.length).toBe(view.assertions.length + view.evidence.length - found.assertions.length - found.evidence.length);
    expect(warrantNow(found, REFERENCE_V2, '2026-09-21T21:00:00Z').warrant.sufficiency).toBe('DEGRADED');
  });

  it("reads Zep's own facts as untrusted; invalid_at/expired_at stay notes and never supersede", async () => {
    const zep = await adapter();
    await plantZepFacts(zep);
    expect(await zep.get('P-deploy')).toBeUndefined();
    const view = await zep.readNative('P-deploy');
    expect(view.retrieval_scope).toBe('zep.facts');
    expect(view.assertions.map((a) => a.source.origin_type)).toEqual(['extract', 'extract']);
    const w = warrantNow(view, REFERENCE_V2, '2026-06-01T00:00:00Z').warrant;
    expect(w).toMatchObject({ sufficiency: 'DEGRADED', verification: 'NONE' });
    expect(w.currency).not.toBe('SUPERSEDED');
    expect(view.lineage).toEqual([]);
    const notes = (view.adapter_meta['@ewp/zep'] as { store_notes: { note: string }[] }).store_notes.map((s) => s.note);
    expect(notes).toEqual(['zep invalid_at 2026-03-01T00:00:00Z', 'zep expired_at 2026-03-02T00:00:00Z']);
  });

  it('a fact search is DEGRADED: collapsed edges never stand in for the snapshot', async () => {
    const zep = await adapter();
    await plantZepFacts(zep);
    const found = await zep.searchFacts('P-deploy', 'deploy pipeline', { limit: 1 });
    expect(found.assertions).toHaveLength(1);
    expect(warrantNow(found, REFERENCE_V2, '2026-06-01T00:00:00Z').warrant.sufficiency).toBe('DEGRADED');
  });

  it('identical claims collapse into one Zep fact: the facts view is DEGRADED, the snapshot keeps all 100', async () => {
    const s = await startZepGraphServer({
      processingDelayMs: 0,
      extractor: (e) => (e.metadata.ewp_part === 0 ? [{ fact: 'X holds', name: 'HOLDS' }] : []),
    });
    try {
      const c = new ZepClient({ apiKey: s.apiKey, baseUrl: s.baseUrl });
      await c.graph.create({ graphId: 'collapse' });
      const zep = new ZepAdapter({ client: c, graphId: 'collapse' });
      const view = fixture('01-reinforcement');
      await zep.put(view);
      expect((await zep.get(view.proposition_id))!.assertions).toHaveLength(view.assertions.length);
      const facts = await zep.readNative(view.proposition_id);
      expect(facts.assertions).toHaveLength(1);
      const T = new Date(Date.now() + 60_000).toISOString();
      expect(warrantNow(facts, REFERENCE_V2, T).warrant.sufficiency).toBe('DEGRADED');
      const searched = await zep.searchFacts(view.proposition_id, 'X holds', { limit: 50 });
      expect(searched.assertions).toHaveLength(1);
      expect(warrantNow(searched, REFERENCE_V2, T).warrant.sufficiency).toBe('DEGRADED');
    } finally {
      await s.close();
    }
  });

  it("reads facts Zep extracted from the adapter's own episodes with the episode as lineage", async () => {
    const s = await startZepGraphServer({
      processingDelayMs: 0,
      extractor: (e) => (e.metadata.ewp_part === 0 ? [{ fact: e.content, name: 'SAYS' }] : []),
    });
    try {
      const c = new ZepClient({ apiKey: s.apiKey, baseUrl: s.baseUrl });
      await c.graph.create({ graphId: 'x' });
      const zep = new ZepAdapter({ client: c, graphId: 'x' });
      const view = fixture('08-verified-now');
      await zep.put(view);
      expect(canonicalViewText((await zep.get(view.proposition_id))!)).toBe(canonicalViewText(view));
      const facts = await zep.readNative(view.proposition_id, { includeUnscoped: false });
      expect(facts.assertions.map((a) => a.text).sort()).toEqual(
        [...new Set([...view.assertions.map((a) => a.text), ...view.evidence.map((e) => e.content)])].sort(),
      );
      expect(facts.assertions[0]!.source.lineage_id).toMatch(/^zep:episode:/);
    } finally {
      await s.close();
    }
  });
});
