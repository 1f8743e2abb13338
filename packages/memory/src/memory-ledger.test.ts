import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { MemoryError } from './errors.js';
import { MemoryLedger } from './memory-ledger.js';

const T = '2026-12-01T12:00:00Z';
const fresh = () => new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });

async function refusal(p: Promise<unknown>): Promise<{ code: string; path: string | undefined }> {
  try {
    await p;
  } catch (e) {
    if (MemoryError.isInstance(e)) return { code: e.code, path: e.path };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('MemoryLedger input', () => {
  it.each([
    [{ text: '', class: 'observation' }, 'text'],
    [{ text: 'x', class: 'belief' }, 'class'],
    [{ text: 'x', class: 'observation', project: '' }, 'project'],
    [{ text: 'x', class: 'observation', source: 7 }, 'source'],
    [{ text: 'x', class: 'observation', supports: 'abc' }, 'supports'],
    [{ text: 'x', class: 'observation', origin_type: 'derived' }, 'origin_type'],
    [{ text: 'x', class: 'inference', origin_type: 'tool' }, 'origin_type'],
    [{ text: 'x', class: 'observation', observed_at: 'yesterday' }, 'observed_at'],
    [{ text: 'x', class: 'inference', derived_from: ['0'.repeat(32)] }, 'derived_from[0]'],
    [{ text: '\ud800', class: 'observation' }, 'text'],
  ])('store refuses %j naming %s, and writes nothing', async (input, path) => {
    const memory = fresh();
    const r = await refusal(memory.store(input as never));
    expect(r.path).toBe(path);
    expect(await memory.evidenceStore.readEntries()).toEqual([]);
  });

  it('a re-store of the same memory is a no-op; under another class it is refused', async () => {
    const memory = fresh();
    const a = await memory.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
    const b = await memory.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
    expect([a.status, b.status, b.hash]).toEqual(['stored', 'unchanged', a.hash]);
    expect(await refusal(memory.store({ text: 'The backup job starts at 06:00', class: 'hypothesis', source: 'scheduler' }))).toEqual({
      code: 'EWP_REFUSE_MEMORY_CLASS_CONFLICT',
      path: 'class',
    });
    expect(await memory.evidenceStore.readEntries({ kind: 'memory.store' })).toHaveLength(1);
  });

  it('recall, show and reclass refuse bad arguments by name', async () => {
    const memory = fresh();
    expect((await refusal(memory.recall({ limit: 0 }))).path).toBe('limit');
    expect((await refusal(memory.recall({ confidence_min: 101 }))).path).toBe('confidence_min');
    expect((await refusal(memory.recall({ class: 'belief' as never }))).path).toBe('class');
    expect((await refusal(memory.recall({ at: 'now' }))).path).toBe('at');
    expect(await refusal(memory.show('0'.repeat(32)))).toEqual({ code: 'EWP_REFUSE_MEMORY_UNKNOWN', path: 'hash' });
    const m = await memory.store({ text: 'a guess', class: 'hypothesis' });
    expect((await refusal(memory.reclass(m.hash, 'belief' as never))).path).toBe('to');
    expect(await memory.reclass(m.hash, 'hypothesis')).toMatchObject({ status: 'unchanged' });
  });

  it('a memory derived from another keeps the derived_from lineage in its view', async () => {
    const memory = fresh();
    const o = await memory.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
    const i = await memory.store({ text: 'So 05:50 is safe', class: 'inference', derived_from: [o.hash] });
    const view = await memory.evidenceStore.get(i.proposition_id);
    expect(view?.lineage).toEqual([{ from_id: i.proposition_id, to_id: o.proposition_id, kind: 'derived_from' }]);
    expect(view?.assertions[0]?.source.origin_type).toBe('derived');
    // Derivation is not support.
    expect((await memory.show(i.hash)).support_count).toBe(0);
  });
});

describe('MemoryLedger index', () => {
  it('two refreshes in flight apply each event once (a reclass counted twice would skip a sequence number)', async () => {
    const store = new MemoryEvidenceStore();
    const a = new MemoryLedger(store, { now: () => T });
    const m = await a.store({ text: 'The cache is cold after a deploy', class: 'hypothesis', source: 'agent' });
    await a.reclass(m.hash, 'inference', 'derived from the deploy log');
    const b = new MemoryLedger(store, { now: () => T });
    await Promise.all([b.refresh(), b.refresh(), b.refresh()]);
    await b.reclass(m.hash, 'hypothesis', 'not derived after all');
    const ids = (await store.readEntries({ kind: 'memory.reclass' })).map((e) => e.id);
    expect(ids).toEqual([`${m.hash}#1`, `${m.hash}#2`]);
  });
});
