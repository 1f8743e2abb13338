/**
 * The suite's ledger-entry cases (docs/spec/store-contract.md, ledger entries): append and read,
 * idempotence and immutability, refusals of bad input, entries in the transaction of a snapshot
 * write, the audit of entry rows, persistence and concurrent appenders.
 */
import { decodeView } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { AGREEMENT_E2, baseView } from './agreement-table.js';
import { refusal, STORE_ERROR_CODES } from './refusal.js';
import type { StoreConformanceOptions, StoreEntryInput, StoreUnderTest } from './store-under-test.js';

const note = (id: string, subjects: string[] = [], body: Record<string, unknown> = { text: `note ${id}` }): StoreEntryInput => ({
  kind: 'memory.store',
  id,
  subjects,
  body,
});

/** Register the entry cases inside the suite's `describe`. */
export function registerEntryCases<S extends StoreUnderTest>(options: StoreConformanceOptions<S>, fresh: () => Promise<S>, track: (store: S) => void): void {
  const { capabilities } = options;

  /** The chain length now (the index the next event gets). */
  const chainLength = async (store: S) => {
    const v = await store.verifyChain();
    expect(v.ok).toBe(true);
    return v.length;
  };

  describe('ledger entries', () => {
    it('appends entries and reads them by kind, namespace, subject, id, afterIndex and beforeIndex, oldest or newest first', async () => {
      const store = await fresh();
      const start = await chainLength(store);
      const out = await store.appendEntries([
        note('m1', ['P-a']),
        { kind: 'memory.link', id: 'l1', subjects: ['P-a', 'P-b'], body: { from: 'm1', to: 'm2' } },
        { kind: 'decision', id: 'd1', subjects: ['P-b'], body: { verdict: 'act', votes: 3, flags: [true, null], nested: { big: 2n ** 70n } } },
        { kind: 'decision.outcome', id: 'd1', body: { ok: true } },
      ]);
      expect(out).toEqual([
        { status: 'stored', kind: 'memory.store', id: 'm1', chain_index: start },
        { status: 'stored', kind: 'memory.link', id: 'l1', chain_index: start + 1 },
        { status: 'stored', kind: 'decision', id: 'd1', chain_index: start + 2 },
        { status: 'stored', kind: 'decision.outcome', id: 'd1', chain_index: start + 3 },
      ]);
      const all = await store.readEntries();
      expect(all.map((e) => [e.kind, e.id, e.chain_index])).toEqual([
        ['memory.store', 'm1', start],
        ['memory.link', 'l1', start + 1],
        ['decision', 'd1', start + 2],
        ['decision.outcome', 'd1', start + 3],
      ]);
      const decision = all[2];
      expect(decision?.body).toEqual({ verdict: 'act', votes: 3, flags: [true, null], nested: { big: 2n ** 70n } });
      expect(decision?.subjects).toEqual(['P-b']);
      expect(Number.isNaN(Date.parse(String(decision?.committed_at)))).toBe(false);
      expect(all[3]?.subjects).toEqual([]);
      const ids = async (q: Parameters<S['readEntries']>[0]) => (await store.readEntries(q)).map((e) => `${e.kind}/${e.id}`);
      expect(await ids({ kind: 'decision' })).toEqual(['decision/d1']);
      expect(await ids({ kind: ['decision', 'memory.link'] })).toEqual(['memory.link/l1', 'decision/d1']);
      expect(await ids({ kind: 'memory.*' })).toEqual(['memory.store/m1', 'memory.link/l1']);
      expect(await ids({ kind: 'decision.*' })).toEqual(['decision.outcome/d1']);
      expect(await ids({ kind: ['decision', 'decision.*'] })).toEqual(['decision/d1', 'decision.outcome/d1']);
      expect(await ids({ subject: 'P-a' })).toEqual(['memory.store/m1', 'memory.link/l1']);
      expect(await ids({ subject: 'P-b', kind: 'memory.*' })).toEqual(['memory.link/l1']);
      expect(await ids({ subject: 'P-none' })).toEqual([]);
      expect(await ids({ id: 'd1' })).toEqual(['decision/d1', 'decision.outcome/d1']);
      expect(await ids({ afterIndex: start + 1 })).toEqual(['decision/d1', 'decision.outcome/d1']);
      expect(await ids({ afterIndex: start + 1, limit: 1 })).toEqual(['decision/d1']);
      expect(await ids({ limit: 0 })).toEqual([]);
      // Newest first: the limit keeps the newest; `beforeIndex` pages further back.
      expect(await ids({ newestFirst: true })).toEqual(['decision.outcome/d1', 'decision/d1', 'memory.link/l1', 'memory.store/m1']);
      expect(await ids({ newestFirst: true, limit: 2 })).toEqual(['decision.outcome/d1', 'decision/d1']);
      expect(await ids({ newestFirst: true, beforeIndex: start + 2, limit: 1 })).toEqual(['memory.link/l1']);
      expect(await ids({ newestFirst: true, kind: 'memory.*', subject: 'P-a' })).toEqual(['memory.link/l1', 'memory.store/m1']);
      expect(await ids({ newestFirst: true, kind: 'decision', afterIndex: start + 2 })).toEqual([]);
      expect(await ids({ beforeIndex: start + 2 })).toEqual(['memory.store/m1', 'memory.link/l1']);
      expect(await ids({ newestFirst: false, limit: 1 })).toEqual(['memory.store/m1']);
      // Reads are copies.
      all[0]?.subjects.push('forged');
      expect((await store.readEntries({ id: 'm1' }))[0]?.subjects).toEqual(['P-a']);
      expect(await chainLength(store)).toBe(start + 4);
    });

    it('treats an identical re-append as a no-op and refuses another body under the same id, writing nothing of the batch', async () => {
      const store = await fresh();
      const [first] = await store.appendEntries([note('m1', ['P-a'])]);
      const length = await chainLength(store);
      expect(await store.appendEntries([note('m1', ['P-a'])])).toEqual([
        { status: 'unchanged', kind: 'memory.store', id: 'm1', chain_index: first?.chain_index },
      ]);
      expect(await chainLength(store)).toBe(length);
      // The same id under another kind is another entry.
      expect((await store.appendEntries([{ ...note('m1', ['P-a']), kind: 'memory.link' }]))[0]?.status).toBe('stored');
      const after = await chainLength(store);
      for (const clash of [note('m1', ['P-a'], { text: 'other' }), note('m1', ['P-b']), note('m1')]) {
        const error = await refusal(store.appendEntries([note('m2'), clash]));
        expect(error.code).toBe(STORE_ERROR_CODES.immutable);
        expect(String(error.path)).toContain('entries[1]');
      }
      // Two bodies under one id in one batch.
      expect((await refusal(store.appendEntries([note('m3'), note('m3', [], { text: 'again' })]))).code).toBe(STORE_ERROR_CODES.immutable);
      expect(await store.readEntries({ kind: 'memory.store' })).toHaveLength(1);
      expect(await chainLength(store)).toBe(after);
      // The identical entry twice in one batch: stored once.
      const twice = await store.appendEntries([note('m4'), note('m4')]);
      expect(twice.map((r) => r.status)).toEqual(['stored', 'unchanged']);
      expect(twice[0]?.chain_index).toBe(twice[1]?.chain_index);
    });

    it('refuses bad entries with a typed error naming the field, and writes nothing', async () => {
      const store = await fresh();
      const cases: [unknown, string][] = [
        [{ ...note('x'), kind: 'Memory.Store' }, 'entries[1].kind'],
        [{ ...note('x'), kind: 'memory..store' }, 'entries[1].kind'],
        [{ ...note('x'), kind: `k${'a'.repeat(64)}` }, 'entries[1].kind'],
        [{ ...note('x'), kind: 7 }, 'entries[1].kind'],
        [note('x', [], { score: 0.5 }), 'entries[1].body.score'],
        [note('x', [], { list: [1, 2.25] }), 'entries[1].body.list[1]'],
        [note('x', [], { text: 'a\ud800b' }), 'entries[1].body.text'],
        [{ ...note('x'), body: ['not', 'an', 'object'] }, 'entries[1].body'],
        [{ ...note('x'), body: null }, 'entries[1].body'],
        [{ ...note('x'), body: 'text' }, 'entries[1].body'],
        [{ ...note('x'), id: 'i'.repeat(257) }, 'entries[1].id'],
        [{ ...note('x'), id: '' }, 'entries[1].id'],
        [{ ...note('x'), id: 'a\udc00' }, 'entries[1].id'],
        [{ ...note('x'), subjects: 'P-a' }, 'entries[1].subjects'],
        [{ ...note('x'), subjects: ['P-a', 3] }, 'entries[1].subjects[1]'],
        ['not an entry', 'entries[1]'],
      ];
      for (const [bad, path] of cases) {
        const error = await refusal(store.appendEntries([note('ok'), bad as StoreEntryInput]));
        expect(error.code, path).toBe(STORE_ERROR_CODES.invalidEntry);
        expect(error.path, path).toBe(path);
      }
      expect((await refusal(store.appendEntries('nope' as never))).code).toBe(STORE_ERROR_CODES.invalidEntry);
      expect((await refusal(store.readEntries({ limit: 100_001 }))).path).toBe('query.limit');
      expect((await refusal(store.readEntries({ kind: 'Bad' }))).path).toBe('query.kind');
      expect((await refusal(store.readEntries({ afterIndex: 1.5 }))).path).toBe('query.afterIndex');
      expect((await refusal(store.readEntries({ beforeIndex: '3' as never }))).path).toBe('query.beforeIndex');
      expect((await refusal(store.readEntries({ newestFirst: 1 as never }))).path).toBe('query.newestFirst');
      // The longest id and kind are accepted.
      await store.appendEntries([{ ...note('i'.repeat(256)), kind: `k${'a'.repeat(63)}` }]);
      expect(await store.readEntries()).toHaveLength(1);
    });

    it('commits entries given to put, putMany and extend in the same transaction, after the snapshot events', async () => {
      const store = await fresh();
      expect(await store.put(baseView('v1'), { entries: [note('m1', ['P-win'])] })).toEqual({ status: 'stored', proposition_id: 'P-win', view_id: 'v1' });
      const length = await chainLength(store);
      const [m1] = await store.readEntries();
      expect(m1?.chain_index).toBe(length - 1); // after the snapshot's events
      // An unchanged put still appends new entries.
      expect((await store.put(baseView('v1'), { entries: [note('m2', ['P-win'])] })).status).toBe('unchanged');
      expect(await chainLength(store)).toBe(length + 1);
      // A refused put writes no entry.
      const refused = await refusal(store.put(baseView('v1', { retrieval_scope: 'partial' }), { entries: [note('m3')] }));
      expect(refused.code).toBe(STORE_ERROR_CODES.immutable);
      // A bad entry refuses the put: no snapshot either.
      const bad = await refusal(store.put(baseView('v2'), { entries: [note('m4', [], { score: 1.5 })] }));
      expect(bad.code).toBe(STORE_ERROR_CODES.invalidEntry);
      expect(bad.path).toBe('options.entries[0].body.score');
      // An entry clash refuses the put: no snapshot either.
      expect((await refusal(store.put(baseView('v2'), { entries: [note('m1', [], { text: 'other' })] }))).code).toBe(STORE_ERROR_CODES.immutable);
      expect(await store.listSnapshots('P-win')).toEqual([{ view_id: 'v1', seq: 0 }]);
      expect((await store.readEntries()).map((e) => e.id)).toEqual(['m1', 'm2']);
      expect(await chainLength(store)).toBe(length + 1);
      // extend and putMany.
      await store.extend('P-win', [{ kind: 'evidence', record: { ...AGREEMENT_E2 } }], { newViewId: 'v2', entries: [note('m5', ['P-win'])] });
      expect(
        (await refusal(store.extend('P-none', [{ kind: 'evidence', record: { ...AGREEMENT_E2, proposition_id: 'P-none' } }], { entries: [note('m6')] }))).code,
      ).toBe(STORE_ERROR_CODES.missingView);
      const other = JSON.parse(JSON.stringify(baseView('v1')).replaceAll('P-win', 'P-many'));
      expect((await store.putMany([other], { entries: [note('m7', ['P-many'])] })).map((r) => r.status)).toEqual(['stored']);
      expect((await store.readEntries()).map((e) => e.id)).toEqual(['m1', 'm2', 'm5', 'm7']);
      expect((await store.readEntries({ subject: 'P-win' })).map((e) => e.id)).toEqual(['m1', 'm2', 'm5']);
      expect((await store.get('P-win'))?.view_id).toBe('v2');
      expect(await store.get('P-many')).toEqual(expectedMany(other, capabilities.keepsAdapterMeta));
      expect((await store.verifyChain()).ok).toBe(true);
    });

    it('verifies after entries: each is one chain event', async () => {
      const store = await fresh();
      await store.put(baseView('v1'));
      const before = await chainLength(store);
      await store.appendEntries([note('m1'), note('m2'), { kind: 'key.state', id: 'k1', body: {} }]);
      expect(await store.verifyChain()).toMatchObject({ ok: true, length: before + 3 });
    });

    if (options.tamperEntries) {
      const tamperEntries = options.tamperEntries;
      describe('tampered entry rows', () => {
        async function ledger() {
          const store = await fresh();
          await store.put(baseView('v1'));
          await store.appendEntries([note('m1', ['P-win']), note('m2', ['P-win'], { text: 'second', n: 2 }), note('m3')]);
          const [, m2] = await store.readEntries();
          return { store, m2: m2 as NonNullable<typeof m2>, length: await chainLength(store), tamper: await tamperEntries(store) };
        }

        it('a changed body fails the audit at the entry’s event (row_mismatch)', async () => {
          const { store, m2, tamper } = await ledger();
          await tamper.setBody('memory.store', 'm2', '{"n":3,"text":"second"}');
          expect(await store.verifyChain()).toMatchObject({ ok: false, firstBadIndex: m2.chain_index, reason: 'row_mismatch' });
        });

        it('a deleted row fails the audit at the entry’s event (missing_row)', async () => {
          const { store, m2, tamper } = await ledger();
          await tamper.remove('memory.store', 'm2');
          expect(await store.verifyChain()).toMatchObject({ ok: false, firstBadIndex: m2.chain_index, reason: 'missing_row' });
        });

        it('an extra row no event appended fails the audit (extra_row)', async () => {
          const { store, length, tamper } = await ledger();
          // At the index of another event (the snapshot's): no `entry_appended` event names it.
          await tamper.copy('memory.store', 'm2', 'm2-forged', 0);
          expect(await store.verifyChain()).toMatchObject({ ok: false, firstBadIndex: length, reason: 'extra_row' });
        });
      });
    }

    if (capabilities.persistent && options.reopen) {
      const reopen = options.reopen;
      it('keeps entries across reopening, and the chain still verifies', async () => {
        let store = await fresh();
        await store.put(baseView('v1'), { entries: [note('m1', ['P-win'])] });
        await store.appendEntries([{ kind: 'decision', id: 'd1', subjects: ['P-win'], body: { big: -(2n ** 80n), s: 'ü\u0000' } }]);
        const entries = await store.readEntries();
        const chain = await store.verifyChain();
        store = await reopen(store);
        track(store);
        expect(await store.readEntries()).toEqual(entries);
        expect(await store.readEntries({ subject: 'P-win', kind: 'decision' })).toEqual(entries.slice(1));
        expect(await store.verifyChain()).toEqual(chain);
        expect((await store.appendEntries([note('m1', ['P-win'])]))[0]?.status).toBe('unchanged');
        await store.appendEntries([note('m2')]);
        expect(await store.verifyChain()).toMatchObject({ ok: true, length: chain.length + 1 });
      });
    }

    it('loses no entry when many appenders run at once', async () => {
      const store = await fresh();
      const handles: S[] = [store];
      if (capabilities.multiProcess && options.openSecond) {
        const second = await options.openSecond(store);
        track(second);
        handles.push(second);
      }
      const n = 12;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => (handles[i % handles.length] as S).appendEntries([note(`c${i}`, [`P-${i % 3}`]), note('shared')])),
      );
      expect(results.flat().filter((r) => r.id === 'shared' && r.status === 'stored')).toHaveLength(1);
      const entries = await store.readEntries({ kind: 'memory.store' });
      expect(entries.map((e) => e.id).sort()).toEqual([...Array.from({ length: n }, (_, i) => `c${i}`), 'shared'].sort());
      expect(new Set(entries.map((e) => e.chain_index)).size).toBe(n + 1);
      expect(await store.readEntries({ subject: 'P-1' })).toHaveLength(4);
      expect(await store.verifyChain()).toMatchObject({ ok: true, length: n + 1 });
    });
  });
}

/** The view `putMany` stored, as `get` returns it. */
function expectedMany(view: unknown, keepsAdapterMeta: boolean): unknown {
  const decoded = decodeView(view);
  return keepsAdapterMeta ? decoded : { ...decoded, adapter_meta: {} };
}
