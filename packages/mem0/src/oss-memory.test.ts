import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalViewText, decodeView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mem0Adapter, Mem0AdapterError, type OssMemoryLike, offlineMemory } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-mem0-oss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => decodeView(adapterFixtures().find((f) => f.name === name)!.raw);

/** The real Memory also has update/delete; the adapter never calls them, tests do (as "someone else"). */
type RealMemory = OssMemoryLike & {
  update(id: string, config: { text?: string; expirationDate?: string | null }): Promise<unknown>;
  delete(id: string): Promise<unknown>;
};

describe('Mem0 open-source Memory (real, offline)', () => {
  let memory: RealMemory;
  let n = 0;
  const adapter = () => mem0Adapter(memory, { userId: `u-${++n}` });
  beforeAll(async () => {
    memory = (await offlineMemory(join(dir, 'mem'))) as RealMemory;
  });

  it('round-trips a fixture losslessly and refuses different content under the same view_id', async () => {
    const a = adapter();
    const view = fixture('08-verified-now');
    await a.write(view);
    const back = await a.read(view.proposition_id);
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    expect(back.view_id).toBe(view.view_id);
    await a.write(view);
    await expect(a.write({ ...view, degraded: true })).rejects.toMatchObject({ code: 'SNAPSHOT_IMMUTABLE' });
  });

  it('keeps propositions of one user apart through metadata filters', async () => {
    const a = adapter();
    const x = fixture('02-fork-x');
    const y = fixture('08-verified-now');
    await a.write(x);
    await a.write(y);
    expect(canonicalViewText(await a.read(x.proposition_id))).toBe(canonicalViewText(x));
    expect(canonicalViewText(await a.read(y.proposition_id))).toBe(canonicalViewText(y));
    expect((await a.rawRecords(x.proposition_id)).every((m) => m.metadata.ewp_pid === x.proposition_id)).toBe(true);
  });

  it('refuses an invalid view with a typed error naming the field, and writes nothing', async () => {
    const a = adapter();
    const view = fixture('08-verified-now');
    const bad = { ...view, evidence: [{ ...view.evidence[0]!, polarity: 'maybe' }] };
    await expect(a.write(bad)).rejects.toMatchObject({ name: 'InvalidEvidenceView', path: '$.evidence[0].polarity' });
    expect(await a.rawRecords(view.proposition_id)).toEqual([]);
  });

  it('an interrupted write never becomes part of a snapshot; latest is refused until a retry commits', async () => {
    const userId = `u-${++n}`;
    let failAt = 2;
    const flaky: OssMemoryLike = {
      add: async (messages, config) => {
        if (--failAt === 0) throw new Error('connection reset');
        return memory.add(messages, config);
      },
      getAll: (config) => memory.getAll(config),
      search: (query, config) => memory.search(query, config),
    };
    const a = mem0Adapter(flaky, { userId });
    const v1 = fixture('02-fork-x');
    failAt = Number.POSITIVE_INFINITY;
    await a.write(v1);
    failAt = 2;
    const v2 = { ...v1, view_id: 'v-next', degraded: true };
    await expect(a.write(v2)).rejects.toThrow('connection reset');
    await expect(a.read(v1.proposition_id)).rejects.toMatchObject({ code: 'SNAPSHOT_INCOMPLETE' });
    expect(canonicalViewText(await a.read(v1.proposition_id, { viewId: v1.view_id }))).toBe(canonicalViewText(v1));
    failAt = Number.POSITIVE_INFINITY;
    await a.write(v2);
    const latest = await a.read(v1.proposition_id);
    expect(latest.view_id).toBe('v-next');
    expect(canonicalViewText(latest)).toBe(canonicalViewText(decodeView(v2)));
  });

  it('refuses a read after Memory.update changed a member, and names it', async () => {
    const a = adapter();
    const view = fixture('02-fork-x');
    await a.write(view);
    const member = (await a.rawRecords(view.proposition_id)).find((m) => m.metadata.ewp_kind === 'assertion')!;
    await memory.update(member.id, { text: 'rewritten by someone else' });
    const error = await a.read(view.proposition_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Mem0AdapterError);
    expect(error).toMatchObject({ code: 'SNAPSHOT_INTEGRITY', details: { altered: [member.id], missing: 0 } });
  });

  it('refuses a read after Memory.delete removed a member', async () => {
    const a = adapter();
    const view = fixture('02-fork-x');
    await a.write(view);
    const member = (await a.rawRecords(view.proposition_id)).find((m) => m.metadata.ewp_kind === 'evidence')!;
    await memory.delete(member.id);
    await expect(a.read(view.proposition_id)).rejects.toMatchObject({ code: 'SNAPSHOT_INTEGRITY', details: { missing: 1 } });
    expect((await a.inspect(view.proposition_id))[0]).toMatchObject({ status: 'missing', missing: 1 });
  });

  it('keeps reading a member Mem0 considers expired, with the expiry as a store note', async () => {
    const a = adapter();
    const view = fixture('08-verified-now');
    await a.write(view);
    const member = (await a.rawRecords(view.proposition_id)).find((m) => m.metadata.ewp_kind === 'evidence')!;
    await memory.update(member.id, { expirationDate: '2020-01-01' });
    // Mem0's own listing now hides it...
    const visible = await memory.getAll({ filters: { user_id: `u-${n}` }, topK: 100 });
    expect(visible.results.map((r) => r.id)).not.toContain(member.id);
    // ...the adapter reads it, and says so.
    const back = await a.read(view.proposition_id);
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    expect((back.adapter_meta['@ewp/mem0'] as { store_notes: unknown[] }).store_notes).toContainEqual({
      memory_id: member.id,
      note: 'mem0 expiration_date 2020-01-01',
    });
  });

  it('refuses a read that hits the read limit (getAll does not page)', async () => {
    const a = mem0Adapter(memory, { userId: `u-${++n}`, readLimit: 3 });
    await expect(a.write(fixture('02-fork-x'))).rejects.toMatchObject({ code: 'READ_LIMIT' });
  });

  it('reads memories Mem0 holds on its own as extract assertions in a DEGRADED view', async () => {
    const a = adapter();
    await memory.add([{ role: 'user', content: 'The on-call rotation changes on Mondays' }], { userId: `u-${n}`, infer: false });
    // An unscoped memory is nobody's evidence until asked for: read() finds no snapshot...
    await expect(a.read('P-oncall')).rejects.toMatchObject({ code: 'SNAPSHOT_NOT_FOUND' });
    // ...readNative() takes the entity's unscoped memories as candidate evidence for P.
    const native = await a.readNative('P-oncall');
    expect(native.assertions.map((x) => [x.text, x.source.origin_type, x.asserted_by])).toEqual([
      ['The on-call rotation changes on Mondays', 'extract', 'mem0.extract'],
    ]);
    expect(native.assertions[0]!.source.lineage_id).toBe(native.assertions[0]!.source.source_id);
    const w = warrantNow(native, REFERENCE_V2, '2100-01-01T00:00:00Z').warrant;
    expect(w).toMatchObject({ sufficiency: 'DEGRADED', verification: 'NONE' });
    // A memory tagged with P but not written by the adapter: read() falls back to it.
    await memory.add([{ role: 'user', content: 'On-call is Alice this week' }], { userId: `u-${n}`, metadata: { ewp_pid: 'P-oncall' }, infer: false });
    const tagged = await a.read('P-oncall');
    expect(tagged.retrieval_scope).toBe('mem0.unverified');
    expect(tagged.assertions.map((x) => x.text)).toEqual(['On-call is Alice this week']);
  });

  it('search: a subset is DEGRADED with the rest omitted; scores never reach warrant', async () => {
    const a = adapter();
    const view = fixture('02-fork-x');
    await a.write(view);
    const found = await a.search(view.proposition_id, view.assertions[0]!.text, { limit: 1 });
    expect(found.view_id).toBe(`${view.view_id}#search`);
    expect(found.degraded).toBe(true);
    expect(found.assertions.length + found.evidence.length).toBe(1);
    const scores = (found.adapter_meta['@ewp/mem0'] as { retrieval_scores: Record<string, number> }).retrieval_scores;
    expect(Object.values(scores)).toHaveLength(1);
    const rescored = { ...found, adapter_meta: { '@ewp/mem0': { retrieval_scores: { x: 1e9 } } } };
    expect(warrantNow(rescored, REFERENCE_V2, '2026-09-21T21:00:00Z')).toEqual(warrantNow(found, REFERENCE_V2, '2026-09-21T21:00:00Z'));
  });
});
