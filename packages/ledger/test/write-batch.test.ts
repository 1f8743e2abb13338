/** `writeBatch`: puts and extends of several propositions with their entries, in one transaction. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type EvidenceStore, JsonFileEvidenceStore, MemoryEvidenceStore } from '../src/index.js';
import { evidenceRecord, seedView } from '../test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-write-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a store holds, as far as a batch could have changed it. */
async function contents(store: EvidenceStore) {
  const props = await store.listPropositions({ limit: 1000 });
  return {
    props: props.map((p) => [p.proposition_id, p.latest_view_id]).sort(),
    entries: (await store.readEntries({ limit: 1000 })).map((e) => `${e.kind}/${e.id}`),
    chain: await store.verifyChain(),
  };
}

describe.each([
  ['memory', () => new MemoryEvidenceStore()],
  ['json-file', () => new JsonFileEvidenceStore(mkdtempSync(join(dir, 'json-')))],
] as const)('writeBatch (%s store)', (_name, create) => {
  it('commits a put, extends of other propositions and the entries together, in order', async () => {
    const store = create();
    await store.put(seedView('P-a'));
    await store.put(seedView('P-b'));
    const results = await store.writeBatch(
      [
        { put: seedView('P-new') },
        { extend: 'P-a', records: [{ kind: 'evidence', record: evidenceRecord('e-a1') }] },
        { extend: 'P-b', records: [{ kind: 'evidence', record: evidenceRecord('e-b1') }] },
      ],
      { entries: [{ kind: 'test.batch', id: 'one', subjects: ['P-new', 'P-a', 'P-b'], body: { n: 1 } }] },
    );
    expect(results.map((r) => [r.status, r.proposition_id])).toEqual([
      ['stored', 'P-new'],
      ['stored', 'P-a'],
      ['stored', 'P-b'],
    ]);
    expect((await store.get('P-a'))?.evidence.map((e) => e.evidence_id)).toEqual(['e0', 'e-a1']);
    expect((await store.get('P-b'))?.evidence.map((e) => e.evidence_id)).toEqual(['e0', 'e-b1']);
    expect((await store.readEntries({ kind: 'test.batch' })).map((e) => e.id)).toEqual(['one']);
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();
  });

  it('writes nothing when any write of the batch is refused, decoded up front or inside the transaction', async () => {
    const store = create();
    await store.put(seedView('P-a'));
    const before = await contents(store);
    const entries = [{ kind: 'test.batch', id: 'two', subjects: ['P-a'], body: {} }];
    // A proposition with no snapshot: refused inside the transaction, after the put was written there.
    await expect(
      store.writeBatch(
        [{ put: seedView('P-new') }, { extend: 'P-a', records: [{ kind: 'evidence', record: evidenceRecord('e-a1') }] }, { extend: 'P-missing', records: [] }],
        { entries },
      ),
    ).rejects.toMatchObject({ name: 'MissingViewError' });
    expect(await contents(store)).toEqual(before);
    // A record id reused for other content.
    const changed = { ...evidenceRecord('e0'), content: 'another text' };
    await expect(
      store.writeBatch([{ put: seedView('P-new') }, { extend: 'P-a', records: [{ kind: 'evidence', record: changed }] }], { entries }),
    ).rejects.toThrow();
    expect(await contents(store)).toEqual(before);
    // A malformed write, refused before the transaction.
    await expect(store.writeBatch([{ put: seedView('P-new') }, { nothing: true } as never], { entries })).rejects.toMatchObject({ path: 'writes[1]' });
    expect(await contents(store)).toEqual(before);
    await store.close();
  });
});
