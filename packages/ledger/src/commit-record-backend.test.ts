import { InvalidArgumentError } from '@ewp/core';
import { baseView } from '@ewp/conformance/store-suite';
import type { EvidenceView } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { CommitRecordEvidenceStore } from './commit-record-evidence-store.js';
import { MemoryCommitRecordStore } from './commit-record-memory-store.js';
import type { CommitRecord, CommitRecordFamily, CommitRecordHit, CommitRecordQuery } from './commit-record-store.js';
import { StoreUnavailableError } from './errors.js';

const evidence = (i: number) => ({
  evidence_id: `e-${i}`,
  polarity: 'supports',
  content: `observation ${i}`,
  source: {
    source_id: `s-${i}`,
    lineage_id: `L-${i}`,
    origin_type: 'tool',
    origin_locator: `loc:${i}`,
    snapshot_id: `snap:${i}`,
    content_hash: `sha256:${i}`,
    observed_at: '2026-09-20T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
  },
  observed_at: '2026-09-20T00:00:00+00:00',
});

/** A record store that fails the first put of one family: a writer process dying at that step. */
class DyingStore extends MemoryCommitRecordStore {
  constructor(private dieAt: CommitRecordFamily | undefined) {
    super();
  }
  override async put(record: CommitRecord): Promise<void> {
    if (record.family === this.dieAt) {
      this.dieAt = undefined;
      throw new Error(`writer died before its ${record.family} record`);
    }
    return super.put(record);
  }
}

/** A hosted-like store: a record is listed only `lagMs` after its put. */
class LaggingStore extends MemoryCommitRecordStore {
  private readonly shownAt = new Map<string, number>();
  constructor(private readonly lagMs: number) {
    super();
  }
  override async put(record: CommitRecord): Promise<void> {
    this.shownAt.set(record.key, Date.now() + this.lagMs);
    return super.put(record);
  }
  override async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
    const now = Date.now();
    return (await super.list(query)).filter((r) => (this.shownAt.get(r.key) ?? 0) <= now);
  }
}

/** A store with a substring search, standing in for a store's own similarity search. */
class SearchingStore extends MemoryCommitRecordStore {
  async search(query: string, scope: { proposition: string; limit: number }): Promise<CommitRecordHit[]> {
    return this.records
      .filter((r) => r.proposition === scope.proposition && r.text?.includes(query))
      .slice(0, scope.limit)
      .map((r) => ({ record: { ...r }, score: 1 }));
  }
}

function commitsByPosition(records: readonly CommitRecord[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of records) if (r.family === 'commit') out.set(r.position as number, (out.get(r.position as number) ?? 0) + 1);
  return out;
}

describe('CommitRecordBackend', () => {
  it('loses nothing when writers of several processes extend at once, and never commits twice at one position', async () => {
    const records = new MemoryCommitRecordStore();
    const writers = Array.from({ length: 4 }, () => new CommitRecordEvidenceStore(records, { maxAttempts: 200 }));
    await writers[0]!.put(baseView('v1'));
    const perWriter = 12;
    await Promise.all(
      writers.flatMap((store, w) => Array.from({ length: perWriter }, (_, i) => store.extend('P-win', [{ kind: 'evidence', record: evidence(w * 100 + i) }]))),
    );
    const latest = (await writers[3]!.get('P-win')) as EvidenceView;
    expect(latest.evidence).toHaveLength(4 * perWriter + 1);
    expect(await writers[1]!.listSnapshots('P-win')).toHaveLength(4 * perWriter + 1);
    const positions = commitsByPosition(records.records);
    expect(positions.size).toBe(4 * perWriter + 1);
    expect([...positions.values()].every((n) => n === 1)).toBe(true);
    // The writers did collide: some claims were withdrawn, and their rows stay behind, unread.
    expect(records.records.some((r) => r.family === 'withdrawal')).toBe(true);
    const chain = await writers[2]!.verifyChain();
    expect(chain.ok).toBe(true);
    expect(chain.not_guaranteed).toEqual(['tail_deletion', 'claim_lease', 'store_text']);
  });

  it('never shows the rows of a writer that died before its claim, and the next write commits', async () => {
    const records = new DyingStore('claim');
    const store = new CommitRecordEvidenceStore(records);
    await expect(store.put(baseView('v1'))).rejects.toThrow(/writer died/);
    expect(records.records.filter((r) => r.family === 'row').length).toBeGreaterThan(0);
    expect(await store.get('P-win')).toBeUndefined();
    expect(await store.listPropositions()).toEqual([]);
    expect(await store.verifyChain()).toMatchObject({ ok: true, length: 0 });
    expect(await store.put(baseView('v1'))).toMatchObject({ status: 'stored' });
    expect((await store.get('P-win'))?.view_id).toBe('v1');
    expect((await store.verifyChain()).ok).toBe(true);
  });

  it('withdraws the claim of a writer that died before its commit once it is stale, then commits', async () => {
    const records = new DyingStore('commit');
    const dead = new CommitRecordEvidenceStore(records);
    await expect(dead.put(baseView('v1'))).rejects.toThrow(/writer died/);
    expect(await dead.get('P-win')).toBeUndefined();
    const next = new CommitRecordEvidenceStore(records, { staleClaimMs: 20, maxAttempts: 100 });
    expect(await next.put(baseView('v2'))).toMatchObject({ status: 'stored' });
    expect(await next.listSnapshots('P-win')).toEqual([{ view_id: 'v2', seq: 0 }]);
    const proxy = records.records.find((r) => r.family === 'withdrawal' && JSON.parse(r.body).by !== r.ingest);
    expect(proxy).toBeDefined();
  });

  it('backs off from a rival claim and fails typed (busy) when it never resolves; nothing is committed', async () => {
    const records = new MemoryCommitRecordStore();
    const store = new CommitRecordEvidenceStore(records, { maxAttempts: 3, staleClaimMs: 60_000 });
    await records.put({ key: 'rival:claim:1', family: 'claim', ingest: 'rival', position: 1, body: '{}' });
    const error = await store.put(baseView('v1')).catch((e: unknown) => e);
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'busy' });
    expect(records.records.filter((r) => r.family === 'withdrawal' && r.ingest !== 'rival')).toHaveLength(3);
    expect(await store.get('P-win')).toBeUndefined();
    // The rival gives up: the position is free again.
    await records.put({ key: 'rival:withdrawal:1', family: 'withdrawal', ingest: 'rival', position: 1, body: '{}' });
    expect(await store.put(baseView('v1'))).toMatchObject({ status: 'stored' });
  });

  it('waits for a store that lists its own writes late, and fails typed (lagging) past the bound', async () => {
    const slow = new CommitRecordEvidenceStore(new LaggingStore(30));
    expect(await slow.put(baseView('v1'))).toMatchObject({ status: 'stored' });
    expect((await slow.get('P-win'))?.view_id).toBe('v1');
    const records = new LaggingStore(10_000);
    const impatient = new CommitRecordEvidenceStore(records, { visibilityTimeoutMs: 40 });
    await expect(impatient.put(baseView('v1'))).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'lagging' });
    expect(records.records.some((r) => r.family === 'commit')).toBe(false);
  });

  it('gives its position back when its own claim does not show in time, so the next writer need not wait', async () => {
    class HidingClaims extends MemoryCommitRecordStore {
      hide = true;
      override async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
        return (await super.list(query)).filter((r) => !(this.hide && r.family === 'claim'));
      }
    }
    const records = new HidingClaims();
    const stuck = new CommitRecordEvidenceStore(records, { visibilityTimeoutMs: 30 });
    await expect(stuck.put(baseView('v1'))).rejects.toMatchObject({ reason: 'lagging' });
    const claim = records.records.find((r) => r.family === 'claim') as CommitRecord;
    expect(records.records.some((r) => r.family === 'withdrawal' && r.ingest === claim.ingest)).toBe(true);
    records.hide = false;
    const next = new CommitRecordEvidenceStore(records, { staleClaimMs: 60_000, maxAttempts: 2 });
    expect(await next.put(baseView('v1'))).toMatchObject({ status: 'stored' });
  });

  it('refuses to read two commits at one position, and verifyChain reports it', async () => {
    const records = new MemoryCommitRecordStore();
    const store = new CommitRecordEvidenceStore(records);
    await store.put(baseView('v1'));
    const commit = records.records.find((r) => r.family === 'commit') as CommitRecord;
    records.records.push({ ...commit, key: 'forged:commit', ingest: 'forged' });
    await expect(store.get('P-win')).rejects.toMatchObject({ reason: 'damaged', message: expect.stringContaining('position 1') });
    expect(await store.verifyChain()).toMatchObject({ ok: false, reason: 'row_mismatch', not_guaranteed: expect.any(Array) });
  });

  it('detects a committed row deleted from the store, and a row rewritten in place', async () => {
    const records = new MemoryCommitRecordStore();
    const store = new CommitRecordEvidenceStore(records);
    await store.put(baseView('v1'));
    await store.extend('P-win', [{ kind: 'evidence', record: evidence(1) }]);
    const row = records.records.findIndex((r) => r.family === 'row' && r.text === 'observation 1');
    const saved = records.records[row] as CommitRecord;
    records.records[row] = { ...saved, body: saved.body.replace('observation 1', 'observation 2') };
    expect(await store.verifyChain()).toMatchObject({ ok: false });
    await expect(store.get('P-win')).rejects.toMatchObject({ reason: 'damaged' });
    records.records.splice(row, 1);
    // Committed rows are immutable by contract, so a reader keeps what it decoded: a row deleted
    // after it was read is found by the audit, and by any reader that lists the rows again.
    await expect(new CommitRecordEvidenceStore(records).get('P-win')).rejects.toMatchObject({
      reason: 'damaged',
      message: expect.stringContaining('committed row records'),
    });
    expect(await store.verifyChain()).toMatchObject({ ok: false });
  });

  it('reads a proposition again without listing its rows while no commit follows, and lists only the later ingest’s rows after one', async () => {
    const records = new MemoryCommitRecordStore();
    const store = new CommitRecordEvidenceStore(records);
    await store.put(baseView('v1'));
    await store.get('P-win');
    const listed: unknown[] = [];
    const list = records.list.bind(records);
    records.list = async (query) => {
      listed.push(query);
      return list(query);
    };
    expect((await store.get('P-win'))?.view_id).toBe('v1');
    expect(listed).toEqual([{ family: 'commit', position: 2 }]);
    await store.extend('P-win', [{ kind: 'evidence', record: evidence(1) }], { newViewId: 'v2' });
    listed.length = 0;
    expect((await store.get('P-win'))?.view_id).toBe('v2');
    const extendIngest = records.records.find((r) => r.family === 'commit' && r.position === 2)?.ingest;
    expect(listed).toEqual([
      { family: 'commit', position: 2 },
      { family: 'commit', position: 3 },
      { family: 'row', ingest: extendIngest, proposition: 'P-win' },
    ]);
  });

  it('a reader adds another writer’s commits one by one, and past 16 of them lists everything again', async () => {
    const records = new MemoryCommitRecordStore();
    const writer = new CommitRecordEvidenceStore(records);
    const reader = new CommitRecordEvidenceStore(records);
    await writer.put(baseView('v1'));
    expect((await reader.get('P-win'))?.view_id).toBe('v1');
    const listed: { family?: string; ingest?: string; proposition?: string; position?: number }[] = [];
    const list = records.list.bind(records);
    records.list = async (query) => {
      listed.push(query);
      return list(query);
    };
    await writer.extend('P-win', [{ kind: 'evidence', record: evidence(1) }], { newViewId: 'v2' });
    await writer.extend('P-win', [{ kind: 'evidence', record: evidence(2) }], { newViewId: 'v3' });
    listed.length = 0;
    const v3 = await reader.get('P-win');
    expect(v3?.view_id).toBe('v3');
    expect(v3?.evidence.map((e) => e.evidence_id).sort()).toEqual(['e-1', 'e-2', 'e1']);
    expect(listed.filter((q) => q.family === 'row').map((q) => q.ingest !== undefined)).toEqual([true, true]);
    expect(await reader.listSnapshots('P-win')).toHaveLength(3);
    for (let i = 3; i < 21; i += 1) await writer.extend('P-win', [{ kind: 'evidence', record: evidence(i) }], { newViewId: `v${i + 1}` });
    listed.length = 0;
    expect((await reader.get('P-win'))?.view_id).toBe('v21');
    expect(listed).toContainEqual({ family: 'commit' });
    expect(listed).toContainEqual({ family: 'row', proposition: 'P-win' });
    // What the reader added matches what a new reader lists whole.
    expect(await reader.get('P-win')).toEqual(await new CommitRecordEvidenceStore(records).get('P-win'));
  });

  it('finds a later ingest’s row missing when it adds that ingest', async () => {
    const records = new MemoryCommitRecordStore();
    const store = new CommitRecordEvidenceStore(records);
    await store.put(baseView('v1'));
    await store.get('P-win');
    await new CommitRecordEvidenceStore(records).extend('P-win', [{ kind: 'evidence', record: evidence(1) }], { newViewId: 'v2' });
    const ingest = records.records.find((r) => r.family === 'commit' && r.position === 2)?.ingest;
    records.records.splice(
      records.records.findIndex((r) => r.family === 'row' && r.ingest === ingest),
      1,
    );
    await expect(store.get('P-win')).rejects.toMatchObject({ reason: 'damaged', message: expect.stringContaining('committed row records') });
  });

  it('searches with the store’s own search, narrowed to committed records, and says DEGRADED when partial', async () => {
    const records = new SearchingStore();
    const store = new CommitRecordEvidenceStore(records, { label: 'demo', metaNamespace: '@ewp/demo' });
    await store.put(baseView('v1'));
    await store.extend('P-win', [{ kind: 'evidence', record: evidence(1) }], { newViewId: 'v2' });
    // A writer that died before its commit left a matching row: it must not be found.
    await records.put({
      key: 'dead:row:0',
      family: 'row',
      ingest: 'dead',
      proposition: 'P-win',
      text: 'observation 9',
      body: JSON.stringify({ binding: { kind: 'evidence', id: 'e-9', body: '{}' } }),
    });
    const found = await store.search('P-win', 'observation');
    expect(found.evidence.map((e) => e.evidence_id)).toEqual(['e-1']);
    expect(found.view_id).toBe('v2#search');
    expect(found.degraded).toBe(true);
    expect(found.retrieval_scope).toBe('demo.search');
    expect(found.omitted_sources).toContain('demo:assertion:a1');
    expect(found.adapter_meta['@ewp/demo']).toEqual({ query: 'observation', retrieval_scores: { 'evidence:e-1': 1 } });
    await expect(store.search('P-none', 'x')).rejects.toMatchObject({ code: 'EWP_REFUSE_MISSING_VIEW' });
    await expect(new CommitRecordEvidenceStore(new MemoryCommitRecordStore()).search('P-win', 'x')).rejects.toThrow(InvalidArgumentError);
  });

  it('refuses a maxAttempts that is not a positive integer, naming the option', () => {
    for (const maxAttempts of [0, -1, 1.5, Number.NaN]) {
      let thrown: unknown;
      try {
        new CommitRecordEvidenceStore(new MemoryCommitRecordStore(), { maxAttempts });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path: 'options.maxAttempts' });
    }
    expect(() => new CommitRecordEvidenceStore(new MemoryCommitRecordStore(), { maxAttempts: 1 })).not.toThrow();
  });
});
