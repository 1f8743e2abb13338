import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalViewText, decodeView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImmutableRecordError, StoreUnavailableError } from '@ewp/ledger';
import { mem0Adapter, type OssMemoryLike } from '@ewp/mem0';
import { offlineMemory } from './index.js';

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

  it('round-trips a fixture losslessly and refuses different content under the same view_id (engine codes)', async () => {
    const a = adapter();
    const view = fixture('08-verified-now');
    expect(await a.put(view)).toMatchObject({ status: 'stored' });
    const back = (await a.get(view.proposition_id))!;
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    expect(back.view_id).toBe(view.view_id);
    expect(await a.put(view)).toMatchObject({ status: 'unchanged' });
    const error = await a.put({ ...view, degraded: true }).catch((e: unknown) => e);
    expect(ImmutableRecordError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_IMMUTABLE_RECORD', recordKind: 'snapshot' });
    expect(a.capabilities).toEqual({ persistent: true, multiProcess: true, keepsAdapterMeta: true, transactional: false });
  });

  it('keeps propositions of one user apart through metadata filters, and keeps claim texts as memory texts', async () => {
    const a = adapter();
    const x = fixture('02-fork-x');
    const y = fixture('08-verified-now');
    await a.put(x);
    await a.put(y);
    expect(canonicalViewText((await a.get(x.proposition_id))!)).toBe(canonicalViewText(x));
    expect(canonicalViewText((await a.get(y.proposition_id))!)).toBe(canonicalViewText(y));
    const raw = await a.rawRecords(x.proposition_id);
    expect(raw.every((m) => m.metadata.ewp_pid === x.proposition_id)).toBe(true);
    expect(raw.map((m) => m.text)).toEqual(expect.arrayContaining(x.assertions.map((r) => r.text)));
    expect((await a.listPropositions()).map((p) => p.proposition_id).sort()).toEqual([x.proposition_id, y.proposition_id].sort());
    expect((await a.verifyChain()).ok).toBe(true);
  });

  it('refuses an invalid view with a typed error naming the field, and writes nothing', async () => {
    const a = adapter();
    const view = fixture('08-verified-now');
    const bad = { ...view, evidence: [{ ...view.evidence[0]!, polarity: 'maybe' }] };
    await expect(a.put(bad)).rejects.toMatchObject({ name: 'InvalidEvidenceView', path: '$.evidence[0].polarity' });
    expect(await a.rawRecords(view.proposition_id)).toEqual([]);
  });

  it('an interrupted write never becomes part of the ledger; a retry commits', async () => {
    const userId = `u-${++n}`;
    let failAt = Number.POSITIVE_INFINITY;
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
    await a.put(v1);
    failAt = 2;
    const v2 = { ...v1, view_id: 'v-next', degraded: true };
    await expect(a.put(v2)).rejects.toThrow('connection reset');
    // The rows of the interrupted ingest are in Mem0, without a commit: latest is still v1.
    expect((await a.get(v1.proposition_id))?.view_id).toBe(v1.view_id);
    expect(await a.get(v1.proposition_id, 'v-next')).toBeUndefined();
    expect((await a.verifyChain()).ok).toBe(true);
    await a.put(v2);
    const latest = (await a.get(v1.proposition_id))!;
    expect(latest.view_id).toBe('v-next');
    expect(canonicalViewText(latest)).toBe(canonicalViewText(decodeView(v2)));
  });

  it('reads the verified record after Memory.update rewrote a memory text (store text is not a guarantee)', async () => {
    const a = adapter();
    const view = fixture('02-fork-x');
    await a.put(view);
    const member = (await a.rawRecords(view.proposition_id)).find((m) => m.metadata.ewp_searchable === true)!;
    await memory.update(member.id, { text: 'rewritten by someone else' });
    expect(canonicalViewText((await a.get(view.proposition_id))!)).toBe(canonicalViewText(view));
    const chain = await a.verifyChain();
    expect(chain.ok).toBe(true);
    expect(chain.not_guaranteed).toContain('store_text');
  });

  it('refuses a read after Memory.delete removed a record, and verifyChain reports it', async () => {
    const a = adapter();
    const view = fixture('02-fork-x');
    await a.put(view);
    const member = (await a.rawRecords(view.proposition_id)).find((m) => m.metadata.ewp_family === 'row')!;
    await memory.delete(member.id);
    const error = await a.get(view.proposition_id).catch((e: unknown) => e);
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
    expect(await a.verifyChain()).toMatchObject({ ok: false });
  });

  it('keeps reading a record Mem0 considers expired (expiry is store-local)', async () => {
    const a = adapter();
    const view = fixture('08-verified-now');
    await a.put(view);
    const member = (await a.rawRecords(view.proposition_id)).find((m) => m.metadata.ewp_searchable === true)!;
    await memory.update(member.id, { expirationDate: '2020-01-01' });
    // Mem0's own listing now hides it...
    const visible = await memory.getAll({ filters: { user_id: `u-${n}` }, topK: 100 });
    expect(visible.results.map((r) => r.id)).not.toContain(member.id);
    // ...the store still reads it.
    expect(canonicalViewText((await a.get(view.proposition_id))!)).toBe(canonicalViewText(view));
  });

  it('refuses a listing that hits the read limit (getAll does not page), and commits nothing', async () => {
    const a = mem0Adapter(memory, { userId: `u-${++n}`, readLimit: 3 });
    await expect(a.put(fixture('02-fork-x'))).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'truncated' });
  });

  it('extends atomically: concurrent extends through two clients lose nothing', async () => {
    const userId = `u-${++n}`;
    const [a, b] = [mem0Adapter(memory, { userId }), mem0Adapter(memory, { userId })];
    const view = fixture('08-verified-now');
    await a.put(view);
    const ev = (i: number) => ({ ...view.evidence[0]!, evidence_id: `x-${i}`, content: `extra observation ${i}` });
    await Promise.all([0, 1, 2, 3].map((i) => (i % 2 ? a : b).extend(view.proposition_id, [{ kind: 'evidence', record: ev(i) }])));
    const latest = (await b.get(view.proposition_id))!;
    expect(latest.evidence.map((e) => e.evidence_id)).toEqual(expect.arrayContaining(['x-0', 'x-1', 'x-2', 'x-3']));
    expect(await a.listSnapshots(view.proposition_id)).toHaveLength(5);
    expect((await a.verifyChain()).ok).toBe(true);
  });

  it('reads memories Mem0 holds on its own as extract assertions in a DEGRADED view', async () => {
    const a = adapter();
    await memory.add([{ role: 'user', content: 'The on-call rotation changes on Mondays' }], { userId: `u-${n}`, infer: false });
    // An unscoped memory is nobody's evidence until asked for: the ledger has no snapshot...
    expect(await a.get('P-oncall')).toBeUndefined();
    // ...readNative() takes the entity's unscoped memories as candidate evidence for P.
    const native = await a.readNative('P-oncall');
    expect(native.assertions.map((x) => [x.text, x.source.origin_type, x.asserted_by])).toEqual([
      ['The on-call rotation changes on Mondays', 'extract', 'mem0.extract'],
    ]);
    expect(native.assertions[0]!.source.lineage_id).toBe(native.assertions[0]!.source.source_id);
    const w = warrantNow(native, REFERENCE_V2, '2100-01-01T00:00:00Z').warrant;
    expect(w).toMatchObject({ sufficiency: 'DEGRADED', verification: 'NONE' });
    // A memory tagged with P but not written through the ledger: read as native, never as a snapshot.
    await memory.add([{ role: 'user', content: 'On-call is Alice this week' }], { userId: `u-${n}`, metadata: { ewp_pid: 'P-oncall' }, infer: false });
    expect(await a.get('P-oncall')).toBeUndefined();
    const tagged = await a.readNative('P-oncall', { includeUnscoped: false });
    expect(tagged.retrieval_scope).toBe('mem0.unverified');
    expect(tagged.assertions.map((x) => x.text)).toEqual(['On-call is Alice this week']);
  });

  it('search: a subset is DEGRADED with the rest omitted; scores never reach warrant', async () => {
    const a = adapter();
    const view = fixture('02-fork-x');
    await a.put(view);
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
