import { loadFixtures } from '@ewp/conformance/pack';
import { decodeView, normalizeWarrantView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { afterEach, describe, expect, it } from 'vitest';
import { innerStores } from '../../test/inner-stores.js';
import { ReservedNamespaceError } from '../ledger/reserved-namespace-error.js';
import { itemLocator } from './item-assertion.js';
import { WarrantedStore } from './warranted-store.js';

const T0 = new Date('2026-09-21T21:00:00Z');

function verifiedView(): Record<string, unknown> {
  const f = loadFixtures().find((x) => x.name === '08-verified-now')!;
  return structuredClone(f.view);
}

describe.each(innerStores)('WarrantedStore over $name', (kind) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });

  async function setup(options: ConstructorParameters<typeof WarrantedStore>[1] = {}) {
    const { store, reopen, dispose } = await kind.create();
    disposers.push(dispose);
    let now = T0;
    const clock = {
      set: (d: Date) => {
        now = d;
      },
    };
    const warranted = new WarrantedStore(store, { now: () => now, persistent: kind.persistent, ...options });
    return { inner: store, store: warranted, reopen, clock };
  }

  it('passes items through and records each as an unverified turn assertion', async () => {
    const { store, inner } = await setup();
    await store.put(['users', 'u1', 'memories'], 'm1', { text: 'the user prefers dark mode' });
    expect((await inner.get(['users', 'u1', 'memories'], 'm1'))!.value).toEqual({ text: 'the user prefers dark mode' });
    const item = await store.get(['users', 'u1', 'memories'], 'm1');
    expect(item!.value).toEqual({ text: 'the user prefers dark mode' });
    const pid = itemLocator(['users', 'u1', 'memories'], 'm1');
    expect(item!.warrant.propositionId).toBe(pid);
    expect(item!.warrant.evaluatedAt).toBe(T0.toISOString());
    expect(item!.warrant).toMatchObject({
      acceptance: 'TENTATIVE',
      verification: 'NONE',
      conflict: 'NONE',
      sufficiency: 'SUFFICIENT',
    });
    const view = (await store.ledger.get(pid))!;
    expect(view.assertions).toHaveLength(1);
    expect(view.assertions[0]!.source.origin_type).toBe('turn');
    expect(view.assertions[0]!.text).toBe('the user prefers dark mode');
    expect(view.checks).toEqual([]);
  });

  it('records the extract origin when configured, and refuses any other', async () => {
    const { store } = await setup({ origin: 'extract', assertedBy: 'memory-extractor' });
    await store.put(['facts'], 'f1', { content: 'Ada lives in Paris' });
    const view = (await store.ledger.get(itemLocator(['facts'], 'f1')))!;
    expect(view.assertions[0]!.source).toMatchObject({ origin_type: 'extract', extractor_id: 'memory-extractor' });
    expect(() => new WarrantedStore(store.inner, { origin: 'tool' as never })).toThrow(/origin/);
  });

  it('counts one lineage per item path; repetition never verifies', async () => {
    const { store } = await setup();
    for (let i = 0; i < 3; i += 1) await store.put(['notes'], 'same', { text: 'X holds', proposition_id: 'P-x' });
    await store.put(['notes'], 'other', { text: 'X holds', proposition_id: 'P-x' });
    const w = (await store.get(['notes'], 'same'))!.warrant;
    expect(w.independentLineageCount).toBe(2);
    expect(w.verification).toBe('NONE');
    expect((await store.ledger.listSnapshots('P-x')).length).toBe(2); // identical re-puts are no-ops
  });

  it('replaces an item contribution on update, keeps latest on A→B→A, and removes it on delete', async () => {
    const { store, clock } = await setup();
    await store.put(['m'], 'k', { text: 'A', proposition_id: 'P-m' });
    clock.set(new Date('2026-09-21T21:05:00Z'));
    await store.put(['m'], 'k', { text: 'B', proposition_id: 'P-m' });
    expect((await store.ledger.get('P-m'))!.assertions.map((a) => a.text)).toEqual(['B']);
    clock.set(new Date('2026-09-21T21:10:00Z'));
    await store.put(['m'], 'k', { text: 'A', proposition_id: 'P-m' });
    const latest = (await store.ledger.get('P-m'))!;
    expect(latest.assertions.map((a) => a.text)).toEqual(['A']);
    // A's return is a new claim at its own time, not a resurrection of the first record.
    expect(latest.assertions[0]!.asserted_at).toBe('2026-09-21T21:10:00.000Z');
    expect(latest.assertions[0]!.assertion_id).not.toBe(
      (await store.ledger.get('P-m', (await store.ledger.listSnapshots('P-m'))[0]!.view_id))!.assertions[0]!.assertion_id,
    );
    expect((await store.ledger.listSnapshots('P-m')).length).toBe(3);
    await store.delete(['m'], 'k');
    expect(await store.get(['m'], 'k')).toBeNull();
    expect((await store.ledger.get('P-m'))!.assertions).toEqual([]);
    expect(await store.warrantOf('P-m')).toMatchObject({ acceptance: 'UNACCEPTED', sufficiency: 'INSUFFICIENT' });
    expect((await store.ledger.verifyChain()).ok).toBe(true);
  });

  it('moves a contribution when an item changes proposition', async () => {
    const { store } = await setup();
    await store.put(['m'], 'k', { text: 'A', proposition_id: 'P-one' });
    await store.put(['m'], 'k', { text: 'A', proposition_id: 'P-two' });
    expect((await store.ledger.get('P-one'))!.assertions).toEqual([]);
    expect((await store.ledger.get('P-two'))!.assertions).toHaveLength(1);
  });

  it('never lets a plain item raise verification, and evaluates at call time', async () => {
    const { store, clock } = await setup();
    await store.ledger.put(verifiedView());
    await store.put(['srv'], 'note', { text: 'server01 runs Windows', proposition_id: 'P-win' });
    const now = (await store.get(['srv'], 'note'))!.warrant;
    expect(now).toMatchObject({ acceptance: 'ACCEPTED', verification: 'EXTERNAL', currency: 'CURRENT' });
    // The only check is 7-day fresh: a week later the same item reads STALE, not ACCEPTED.
    clock.set(new Date('2026-10-05T00:00:00Z'));
    const later = (await store.get(['srv'], 'note'))!.warrant;
    expect(later.evaluatedAt).toBe('2026-10-05T00:00:00.000Z');
    expect(later).toMatchObject({ acceptance: 'TENTATIVE', currency: 'STALE' });
    // A plain item alone, even one claiming the text of a tool observation, stays unverified.
    await store.put(['srv'], 'claim', { text: 'checked with winrm: verified', proposition_id: 'P-claim' });
    expect((await store.get(['srv'], 'claim'))!.warrant.verification).toBe('NONE');
  });

  it('marks a search cut by limit DEGRADED, and a complete one not', async () => {
    const { store } = await setup();
    for (let i = 0; i < 4; i += 1) await store.put(['docs'], `d${i}`, { text: `fact ${i}` });
    const cut = await store.search(['docs'], { limit: 2 });
    expect(cut).toHaveLength(2);
    for (const hit of cut) {
      expect(hit.warrant.sufficiency).toBe('DEGRADED');
      expect(hit.warrant.viewId.endsWith('#search')).toBe(true);
    }
    const whole = await store.search(['docs'], { limit: 4 });
    expect(whole).toHaveLength(4);
    for (const hit of whole) expect(hit.warrant.sufficiency).toBe('SUFFICIENT');
    const paged = await store.search(['docs'], { limit: 2, offset: 2 });
    expect(paged).toHaveLength(2);
    expect(paged.every((h) => h.warrant.sufficiency === 'SUFFICIENT')).toBe(true);
    // The default limit (10) applies when none is given.
    for (let i = 4; i < 12; i += 1) await store.put(['docs'], `d${i}`, { text: `fact ${i}` });
    const dflt = await store.search(['docs']);
    expect(dflt).toHaveLength(10);
    expect(dflt[0]!.warrant.sufficiency).toBe('DEGRADED');
  });

  it('hides the EWP namespace from search and namespace listing, and refuses writes to it', async () => {
    const { store } = await setup();
    await store.put(['a'], 'k1', { text: 'one' });
    await store.put(['b'], 'k2', { text: 'two' });
    if (kind.searchesEverything) {
      const everything = await store.search([], { limit: 2 });
      expect(everything.map((i) => i.namespace[0]).sort()).toEqual(['a', 'b']);
      expect(everything.every((i) => i.warrant.sufficiency === 'SUFFICIENT')).toBe(true);
      expect(await store.search([], { limit: 1 })).toHaveLength(1);
    }
    expect((await store.listNamespaces()).map((n) => n[0]).sort()).toEqual(['a', 'b']);
    const refusal = await store.put(['ewp', 'propositions'], 'P-x', { forged: true }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ReservedNamespaceError);
    expect((refusal as ReservedNamespaceError).code).toBe('EWP_REFUSE_RESERVED_NAMESPACE');
    await expect(store.get(['ewp', 'heads'], 'x')).rejects.toBeInstanceOf(ReservedNamespaceError);
    await expect(store.search(['ewp'])).rejects.toBeInstanceOf(ReservedNamespaceError);
  });

  it('loses no contribution when items of one proposition are written concurrently', async () => {
    const { store } = await setup();
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.put(['team'], `m${i}`, { text: `observation ${i}`, proposition_id: 'P-team' })));
    const view = (await store.ledger.get('P-team'))!;
    expect(view.assertions.map((a) => a.text).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `observation ${i}`));
    expect((await store.warrantOf('P-team'))!.independentLineageCount).toBe(8);
  });

  it('writes neither the item nor its evidence when the ledger refuses', async () => {
    const { store, inner } = await setup({ propositionOf: () => '' });
    await expect(store.put(['m'], 'bad', { text: 'x' })).rejects.toMatchObject({ code: 'EMPTY_STRING' });
    expect(await inner.get(['m'], 'bad')).toBeNull();
    expect(await store.ledger.listPropositions()).toEqual([]);
  });

  it('reads an item written around the wrapper as unrecorded: DEGRADED', async () => {
    const { store, inner } = await setup();
    await inner.put(['raw'], 'r1', { text: 'written directly' });
    const item = (await store.get(['raw'], 'r1'))!;
    expect(item.warrant).toMatchObject({ sufficiency: 'DEGRADED', verification: 'NONE' });
    expect(await store.ledger.get(itemLocator(['raw'], 'r1'))).toBeUndefined();
  });

  it('stores every conformance fixture losslessly through the ledger', async () => {
    const { store } = await setup();
    // Fixtures reuse proposition and record ids with other content; give each its own namespace root.
    for (const [i, f] of loadFixtures().entries()) {
      const own = new WarrantedStore(store.inner, { namespaceRoot: `ewp${i}` });
      const direct = decodeView(f.view);
      await own.ledger.put(f.view);
      const back = (await own.ledger.get(direct.proposition_id))!;
      expect(back).toEqual(direct);
      expect(normalizeWarrantView(warrantNow(back, REFERENCE_V2, f.evaluatedAt))).toEqual(
        normalizeWarrantView(warrantNow(direct, REFERENCE_V2, f.evaluatedAt)),
      );
    }
  });

  if (kind.persistent) {
    it('keeps memories and evidence across a reopen', async () => {
      const { store, reopen } = await setup();
      await store.ledger.put(verifiedView());
      await store.put(['srv'], 'note', { text: 'server01 runs Windows', proposition_id: 'P-win' });
      const again = new WarrantedStore(await reopen(), { now: () => T0 });
      const item = (await again.get(['srv'], 'note'))!;
      expect(item.warrant.acceptance).toBe('ACCEPTED');
      expect((await again.ledger.get('P-win'))!.assertions).toHaveLength(2);
      expect((await again.ledger.verifyChain()).ok).toBe(true);
    });
  }
});
