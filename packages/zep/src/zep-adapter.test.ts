import { canonicalViewText, decodeView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { ZepClient } from '@getzep/zep-cloud';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantZepFacts } from './conformance.js';
import { ZepAdapter, ZepAdapterError } from './index.js';
import { startZepGraphServer, type ZepGraphServer } from './testing/index.js';

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

  it('keeps every episode within Zep limits and splits a record over 10 000 characters', async () => {
    const zep = await adapter();
    const base = fixture('08-verified-now');
    const big = 'é"\\'.repeat(6000);
    const view = decodeView({ ...base, evidence: [{ ...base.evidence[0]!, content: big }], view_id: 'v-big' });
    await zep.write(view);
    const episodes = [...server.episodes.values()].filter((e) => e.graph_id === zep.graphId);
    expect(Math.max(...episodes.map((e) => e.content.length))).toBeLessThanOrEqual(10_000);
    expect(Math.max(...episodes.map((e) => Object.keys(e.metadata).length))).toBeLessThanOrEqual(10);
    expect(episodes.some((e) => e.metadata.ewp_parts !== 1)).toBe(true);
    const back = await zep.read(view.proposition_id);
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
  });

  it('refuses an invalid view with a typed error naming the field, and adds no episode', async () => {
    const zep = await adapter();
    const view = fixture('08-verified-now');
    const bad = { ...view, checks: [{ ...view.checks[0]!, result: 'Supports' }] };
    await expect(zep.write(bad)).rejects.toMatchObject({ name: 'InvalidEvidenceView', path: '$.checks[0].result' });
    expect([...server.episodes.values()].filter((e) => e.graph_id === zep.graphId)).toEqual([]);
  });

  it('refuses a read after an episode was deleted outside the adapter', async () => {
    const zep = await adapter();
    const view = fixture('02-fork-x');
    await zep.write(view);
    const victim = (await zep.rawRecords(view.proposition_id)).find((e) => e.metadata?.ewp_kind === 'assertion')!;
    await client.graph.episode.delete(victim.uuid);
    const error = await zep.read(view.proposition_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZepAdapterError);
    expect(error).toMatchObject({ code: 'SNAPSHOT_INTEGRITY' });
    expect((await zep.inspect(view.proposition_id))[0]).toMatchObject({ status: 'broken' });
  });

  it('refuses a read after metadata was re-tagged outside the adapter', async () => {
    const zep = await adapter();
    const view = fixture('02-fork-x');
    await zep.write(view);
    const victim = (await zep.rawRecords(view.proposition_id)).find((e) => e.metadata?.ewp_kind === 'evidence')!;
    await client.graph.episode.update(victim.uuid, { metadata: { ewp_pid: 'P-other' } });
    await expect(zep.read(view.proposition_id)).rejects.toMatchObject({ code: 'SNAPSHOT_INTEGRITY' });
  });

  it('refuses a different snapshot under the same view_id and accepts an identical one', async () => {
    const zep = await adapter();
    const view = fixture('08-verified-now');
    await zep.write(view);
    await zep.write(view);
    await expect(zep.write({ ...view, degraded: true })).rejects.toMatchObject({ code: 'SNAPSHOT_IMMUTABLE' });
  });

  it('a search over more records than Zep returns (limit 50) is DEGRADED and lists the rest', async () => {
    const zep = await adapter();
    const view = fixture('01-reinforcement');
    await zep.write(view);
    const found = await zep.search(view.proposition_id, 'X', { limit: 500 });
    expect(found.assertions.length).toBeLessThanOrEqual(50);
    expect(found.omitted_sources.length).toBe(view.assertions.length - found.assertions.length);
    expect(warrantNow(found, REFERENCE_V2, '2026-09-21T21:00:00Z').warrant.sufficiency).toBe('DEGRADED');
  });

  it("reads Zep's own facts as untrusted; invalid_at/expired_at stay notes and never supersede", async () => {
    const zep = await adapter();
    await plantZepFacts(zep);
    const view = await zep.read('P-deploy');
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
      extractor: (e) => (e.metadata.ewp_kind === 'assertion' ? [{ fact: 'X holds', name: 'HOLDS' }] : []),
    });
    try {
      const c = new ZepClient({ apiKey: s.apiKey, baseUrl: s.baseUrl });
      await c.graph.create({ graphId: 'collapse' });
      const zep = new ZepAdapter({ client: c, graphId: 'collapse' });
      const view = fixture('01-reinforcement');
      await zep.write(view);
      expect((await zep.read(view.proposition_id)).assertions).toHaveLength(view.assertions.length);
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

  it('reads facts Zep extracted from the adapter\'s own episodes with the episode as lineage', async () => {
    const s = await startZepGraphServer({
      processingDelayMs: 0,
      extractor: (e) => (e.metadata.ewp_kind === 'assertion' ? [{ fact: 'extracted fact', name: 'SAYS' }] : []),
    });
    try {
      const c = new ZepClient({ apiKey: s.apiKey, baseUrl: s.baseUrl });
      await c.graph.create({ graphId: 'x' });
      const zep = new ZepAdapter({ client: c, graphId: 'x' });
      const view = fixture('08-verified-now');
      await zep.write(view);
      expect(canonicalViewText(await zep.read(view.proposition_id))).toBe(canonicalViewText(view));
      const facts = await zep.readNative(view.proposition_id);
      expect(facts.assertions).toHaveLength(view.assertions.length);
      expect(facts.assertions[0]!.source.lineage_id).toMatch(/^zep:episode:/);
    } finally {
      await s.close();
    }
  });
});
