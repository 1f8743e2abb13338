/**
 * The shared EvidenceStore suite (docs/spec/store-contract.md §1). Every store package runs it from a
 * one-file `*.standard.test.ts`:
 *
 * ```ts
 * import { runStoreConformance } from '@ewp/conformance/store-suite';
 * runStoreConformance({ name: 'sqlite', create: () => openSqliteStore(tmpFile()), capabilities: SqliteEvidenceStore.CAPABILITIES });
 * ```
 *
 * Each contract item is its own test, so one failure never hides the rest.
 * @packageDocumentation
 */
import { decodeView, deriveViewId, type EvidenceView, normalizeWarrantView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFixtures } from '../pack/index.js';
import { AGREEMENT_E2, AGREEMENT_SOURCE, agreementSteps, baseView } from './agreement-table.js';
import { registerEntryCases } from './entry-cases.js';
import { refusal, STORE_ERROR_CODES } from './refusal.js';
import type { StoreConformanceOptions, StoreUnderTest } from './store-under-test.js';

export { agreementSteps, baseView } from './agreement-table.js';
export { STORE_ERROR_CODES } from './refusal.js';
export type {
  EntryRowTamper,
  StoreCapabilityFlags,
  StoreConformanceOptions,
  StoreEntry,
  StoreEntryInput,
  StoreEntryOptions,
  StorePutResult,
  StoreUnderTest,
} from './store-under-test.js';

/** The view as the kernel decodes it, with `adapter_meta` as the store is declared to keep it. */
function expectedRoundTrip(view: EvidenceView, keepsAdapterMeta: boolean): EvidenceView {
  return keepsAdapterMeta ? view : { ...view, adapter_meta: {} };
}

/** Register the suite with vitest. */
export function runStoreConformance<S extends StoreUnderTest>(options: StoreConformanceOptions<S>): void {
  const { name, capabilities } = options;
  const open: S[] = [];

  async function fresh(): Promise<S> {
    const store = await options.create();
    open.push(store);
    return store;
  }

  afterEach(async () => {
    for (const store of open.splice(0)) {
      await store.close().catch(() => undefined);
      await options.destroy?.(store);
    }
  });

  describe(`EvidenceStore conformance: ${name}`, () => {
    describe('snapshots', () => {
      it('stores a snapshot and reads it back as latest and by id', async () => {
        const store = await fresh();
        const put = await store.put(baseView('v1'));
        expect(put).toEqual({ status: 'stored', proposition_id: 'P-win', view_id: 'v1' });
        const expected = decodeView(baseView('v1'));
        expect(await store.get('P-win')).toEqual(expected);
        expect(await store.get('P-win', 'v1')).toEqual(expected);
      });

      it('returns undefined for an unknown proposition or view id', async () => {
        const store = await fresh();
        expect(await store.get('P-none')).toBeUndefined();
        await store.put(baseView('v1'));
        expect(await store.get('P-win', 'v-none')).toBeUndefined();
        expect(await store.get('P-none', 'v1')).toBeUndefined();
      });

      it('treats an identical re-put as a no-op that does not make an older snapshot latest', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        await store.put(baseView('v3', { evidence: [...(baseView('v1').evidence as unknown[]), AGREEMENT_E2] }));
        const again = await store.put(baseView('v1'));
        expect(again.status).toBe('unchanged');
        expect((await store.get('P-win'))?.view_id).toBe('v3');
        expect((await store.listSnapshots('P-win')).map((s) => s.view_id)).toEqual(['v1', 'v3']);
      });

      it('treats a re-put in another record order as identical (canonical comparison)', async () => {
        const store = await fresh();
        const view = baseView('v3', { evidence: [...(baseView('v1').evidence as unknown[]), AGREEMENT_E2] });
        await store.put(view);
        const reordered = { ...view, evidence: [...(view.evidence as unknown[])].reverse() };
        expect((await store.put(reordered)).status).toBe('unchanged');
        // The stored snapshot keeps its own order.
        expect((await store.get('P-win', 'v3'))?.evidence.map((e) => e.evidence_id)).toEqual(['e1', 'e2']);
      });

      it('refuses a different snapshot under an existing id and writes nothing', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        const before = await store.verifyChain();
        const error = await refusal(store.put(baseView('v1', { retrieval_scope: 'partial' })));
        expect(error.code).toBe(STORE_ERROR_CODES.immutable);
        expect(await store.get('P-win', 'v1')).toEqual(decodeView(baseView('v1')));
        expect(await store.listSnapshots('P-win')).toHaveLength(1);
        expect((await store.verifyChain()).length).toBe(before.length);
      });

      it('refuses an invalid view with a typed error naming the field, and writes nothing', async () => {
        const store = await fresh();
        const bad = baseView('v1', { checks: [{ ...(baseView('v1').checks as Record<string, unknown>[])[0], result: 'maybe' }] });
        const error = await refusal(store.put(bad));
        expect(typeof error.code).toBe('string');
        expect(String(error.path)).toContain('checks[0]');
        expect(await store.get('P-win')).toBeUndefined();
        expect(await store.listPropositions()).toEqual([]);
        expect((await store.verifyChain()).length).toBe(0);
      });

      it('refuses an id holding an unpaired surrogate (beside a NUL) with LONE_SURROGATE, and writes nothing', async () => {
        const store = await fresh();
        const error = await refusal(store.put(baseView('\u0000\ud800')));
        expect(error.code).toBe('LONE_SURROGATE');
        expect(await store.listPropositions()).toEqual([]);
        expect((await store.verifyChain()).length).toBe(0);
      });

      it('names a view without view_id (missing, null or "") by its derived id', async () => {
        const store = await fresh();
        const { view_id: _drop, ...anonymous } = baseView('x');
        const derived = deriveViewId(decodeView({ ...anonymous, view_id: null }));
        for (const variant of [anonymous, { ...anonymous, view_id: null }, { ...anonymous, view_id: '' }]) {
          const put = await store.put(variant);
          expect(put.view_id).toBe(derived);
        }
        expect(await store.listSnapshots('P-win')).toEqual([{ view_id: derived, seq: 0 }]);
      });

      it('keeps ids local to a proposition', async () => {
        const store = await fresh();
        const other = JSON.parse(JSON.stringify(baseView('v1')).replaceAll('P-win', 'P-other').replace('WinRM is enabled', 'Other text'));
        other.checks[0].result = 'opposes';
        other.assertions[0].source.lineage_id = 'L-elsewhere';
        other.evidence[0].source.lineage_id = 'L-elsewhere';
        other.checks[0].source.lineage_id = 'L-elsewhere';
        await store.put(baseView('v1'));
        await store.put(other);
        expect((await store.get('P-win'))?.checks[0]?.result).toBe('supports');
        expect((await store.get('P-other'))?.checks[0]?.result).toBe('opposes');
        expect((await store.get('P-other'))?.assertions[0]?.text).toBe('Other text on server01');
      });

      it('handles ids that are JavaScript prototype names', async () => {
        const store = await fresh();
        const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
        for (const name of names) {
          const view = JSON.parse(JSON.stringify(baseView(name)).replaceAll('"P-win"', JSON.stringify(name)));
          view.assertions[0].assertion_id = name;
          view.evidence[0].evidence_id = name;
          view.checks[0].check_id = name;
          for (const r of [view.assertions[0], view.evidence[0], view.checks[0]]) r.source.source_id = name;
          expect((await store.put(view)).status).toBe('stored');
          expect((await store.put(view)).status).toBe('unchanged');
          expect(await store.get(name, name)).toEqual(decodeView(view));
          expect(await store.get(name)).toEqual(decodeView(view));
        }
        expect((await store.listPropositions()).map((p) => p.proposition_id).sort()).toEqual([...names].sort());
        expect((await store.verifyChain()).ok).toBe(true);
      });

      it('returns copies: mutating a read view changes nothing stored', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        const read = (await store.get('P-win')) as EvidenceView;
        read.assertions[0]!.text = 'changed';
        read.subjects.push('x');
        read.evidence.length = 0;
        expect(await store.get('P-win')).toEqual(decodeView(baseView('v1')));
      });

      it('keeps check subjects, view subjects and omitted sources in their stored order', async () => {
        const store = await fresh();
        await store.put(baseView('v1', { omitted_sources: ['z', 'a'] }));
        await store.put(
          baseView('v9', {
            subjects: ['srv-1', 'server01'],
            checks: [{ ...(baseView('v1').checks as Record<string, unknown>[])[0], subjects: ['srv-1', 'server01'] }],
          }),
        );
        expect((await store.get('P-win', 'v1'))?.omitted_sources).toEqual(['z', 'a']);
        expect((await store.get('P-win', 'v1'))?.checks[0]?.subjects).toEqual(['server01', 'srv-1']);
        expect((await store.get('P-win', 'v9'))?.checks[0]?.subjects).toEqual(['srv-1', 'server01']);
        expect((await store.get('P-win', 'v9'))?.subjects).toEqual(['srv-1', 'server01']);
      });

      it('refuses a check re-put with a duplicate subject dropped: its subject list is part of its identity', async () => {
        const store = await fresh();
        const k1 = (baseView('v1').checks as Record<string, unknown>[])[0];
        await store.put(baseView('v1', { subjects: ['srv-1', 'server01'], checks: [{ ...k1, subjects: ['srv-1', 'server01', 'srv-1'] }] }));
        const error = await refusal(store.put(baseView('v2', { subjects: ['srv-1', 'server01'], checks: [{ ...k1, subjects: ['srv-1', 'server01'] }] })));
        expect(error.code).toBe(STORE_ERROR_CODES.immutable);
        expect(await store.listSnapshots('P-win')).toEqual([{ view_id: 'v1', seq: 0 }]);
        expect((await store.get('P-win'))?.checks[0]?.subjects).toEqual(['srv-1', 'server01', 'srv-1']);
      });

      if (capabilities.keepsAdapterMeta) {
        it('keeps adapter_meta, nested, exactly', async () => {
          const store = await fresh();
          const meta = { store: 'x', scores: { a1: 0.25, n: [1, 2, { deep: null }] }, flag: true, text: 'é😀' };
          await store.put(baseView('v1', { adapter_meta: meta }));
          expect((await store.get('P-win'))?.adapter_meta).toEqual(meta);
        });
      }
    });

    describe('the cross-store agreement table (docs/spec/store-contract.md §1.7)', () => {
      it('gives the reference outcome at every step', async () => {
        const store = await fresh();
        const outcomes: { step: number; outcome: string; code?: unknown }[] = [];
        for (const step of agreementSteps()) {
          try {
            const put = await store.put(step.view);
            outcomes.push({ step: step.step, outcome: put.status });
          } catch (error) {
            outcomes.push({ step: step.step, outcome: 'refused', code: (error as { code?: unknown }).code });
          }
        }
        expect(outcomes).toEqual(
          agreementSteps().map((s) =>
            s.outcome === 'refused' ? { step: s.step, outcome: 'refused', code: STORE_ERROR_CODES.immutable } : { step: s.step, outcome: s.outcome },
          ),
        );
        expect((await store.listSnapshots('P-win')).map((s) => s.view_id)).toEqual(['v1', 'v3', 'v5', 'v7', 'v8', 'v9']);
        expect((await store.get('P-win'))?.view_id).toBe('v9');
        expect((await store.get('P-win', 'v7'))?.conflicts[0]?.status).toBe('resolved');
        expect((await store.get('P-win', 'v5'))?.conflicts[0]?.status).toBe('open');
        expect((await store.get('P-win', 'v8'))?.evidence.map((e) => e.evidence_id)).toEqual(['e2', 'e1']);
        expect((await store.verifyChain()).ok).toBe(true);
      });
    });

    describe('extend', () => {
      const e = (i: number) => ({
        evidence_id: `x${i}`,
        polarity: 'supports',
        source: { ...AGREEMENT_SOURCE, source_id: `s-x${i}`, lineage_id: `L-x${i}` },
        content: `observation ${i}`,
        observed_at: '2026-09-02T00:00:00+00:00',
      });

      it('appends a record and commits a new snapshot (derived id by default)', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        const put = await store.extend('P-win', [{ kind: 'evidence', record: e(1) }]);
        expect(put.status).toBe('stored');
        const latest = (await store.get('P-win')) as EvidenceView;
        expect(latest.view_id).toBe(put.view_id);
        expect(latest.view_id).toBe(deriveViewId(latest));
        expect(latest.evidence.map((x) => x.evidence_id)).toEqual(['e1', 'x1']);
        expect(latest.evidence[1]?.proposition_id).toBe('P-win');
        expect((await store.get('P-win', 'v1'))?.evidence).toHaveLength(1);
      });

      it('honours newViewId and carries conflicts, lineage, completeness and subjects over', async () => {
        const store = await fresh();
        await store.put(
          baseView('v1', {
            conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-win'], status: 'open', note: '' }],
            lineage: [{ from_id: 's1', to_id: 's0', kind: 'derived_from' }],
            omitted_sources: ['gone'],
            degraded: true,
            retrieval_scope: 'partial',
            freshness_policy_seconds: 60,
            adapter_meta: capabilities.keepsAdapterMeta ? { k: 1 } : {},
          }),
        );
        await store.extend('P-win', [{ kind: 'evidence', record: e(1) }], { newViewId: 'v2' });
        const v2 = (await store.get('P-win', 'v2')) as EvidenceView;
        const v1 = (await store.get('P-win', 'v1')) as EvidenceView;
        expect({ ...v2, view_id: 'v1', evidence: v1.evidence }).toEqual(v1);
      });

      it('resolves a conflict by id and appends lineage without duplicates', async () => {
        const store = await fresh();
        await store.put(baseView('v1', { conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-win'], status: 'open', note: '' }] }));
        await store.extend(
          'P-win',
          [
            { kind: 'conflict', record: { conflict_id: 'c1', proposition_ids: ['P-win'], status: 'resolved', note: 'checked' } },
            { kind: 'lineage', record: { from_id: 'a', to_id: 'b', kind: 'derived_from' } },
          ],
          { newViewId: 'v2' },
        );
        await store.extend('P-win', [{ kind: 'lineage', record: { from_id: 'a', to_id: 'b', kind: 'derived_from' } }], { newViewId: 'v3' });
        const v3 = (await store.get('P-win', 'v3')) as EvidenceView;
        expect(v3.conflicts).toEqual([{ conflict_id: 'c1', proposition_ids: ['P-win'], status: 'resolved', note: 'checked' }]);
        expect(v3.lineage).toEqual([{ from_id: 'a', to_id: 'b', kind: 'derived_from' }]);
        expect((await store.get('P-win', 'v1'))?.conflicts[0]?.status).toBe('open');
        const widened = await refusal(
          store.extend('P-win', [{ kind: 'conflict', record: { conflict_id: 'c1', proposition_ids: ['P-win', 'P-x'], status: 'open', note: '' } }]),
        );
        expect(widened.code).toBe(STORE_ERROR_CODES.immutable);
      });

      it('refuses a missing proposition with MISSING_VIEW', async () => {
        const store = await fresh();
        const error = await refusal(store.extend('P-none', [{ kind: 'evidence', record: e(1) }]));
        expect(error.code).toBe(STORE_ERROR_CODES.missingView);
      });

      it('refuses a record id bound to other content, and skips an identical retried record', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        await store.extend('P-win', [{ kind: 'evidence', record: e(1) }], { newViewId: 'v2' });
        const clash = await refusal(store.extend('P-win', [{ kind: 'evidence', record: { ...e(1), content: 'other' } }]));
        expect(clash.code).toBe(STORE_ERROR_CODES.immutable);
        const retried = await store.extend('P-win', [{ kind: 'evidence', record: e(1) }], { newViewId: 'v2' });
        expect(retried.status).toBe('unchanged');
        expect((await store.get('P-win'))?.evidence.map((x) => x.evidence_id)).toEqual(['e1', 'x1']);
        expect(await store.listSnapshots('P-win')).toHaveLength(2);
      });

      it('refuses an invalid record with a typed error and writes nothing', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        const length = (await store.verifyChain()).length;
        const error = await refusal(store.extend('P-win', [{ kind: 'evidence', record: { ...e(1), polarity: 'sideways' } }]));
        expect(typeof error.code).toBe('string');
        expect(String(error.path)).toContain('polarity');
        expect(await store.listSnapshots('P-win')).toHaveLength(1);
        expect((await store.verifyChain()).length).toBe(length);
      });

      it('loses nothing when many extends run at once, and reads a long history back', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        const n = 150;
        await Promise.all(Array.from({ length: n }, (_, i) => store.extend('P-win', [{ kind: 'evidence', record: e(i) }])));
        const latest = (await store.get('P-win')) as EvidenceView;
        expect(latest.evidence).toHaveLength(n + 1);
        expect(new Set(latest.evidence.map((x) => x.evidence_id)).size).toBe(n + 1);
        expect(await store.listSnapshots('P-win')).toHaveLength(n + 1);
        const chain = await store.verifyChain();
        expect(chain.ok).toBe(true);
      });
    });

    describe('listing', () => {
      it('lists propositions newest first, with a query and a limit', async () => {
        const store = await fresh();
        await store.put(baseView('v1'));
        const other = JSON.parse(JSON.stringify(baseView('o1')).replaceAll('P-win', 'P-other').replace('WinRM is enabled on server01', 'Disk is FULL'));
        await store.put(other);
        const all = await store.listPropositions();
        expect(all.map((p) => p.proposition_id)).toEqual(['P-other', 'P-win']);
        expect(all[1]).toEqual({ proposition_id: 'P-win', latest_view_id: 'v1', assertions: ['WinRM is enabled on server01'], snapshots: 1 });
        expect((await store.listPropositions({ query: 'disk is full' })).map((p) => p.proposition_id)).toEqual(['P-other']);
        expect((await store.listPropositions({ query: 'p-WIN' })).map((p) => p.proposition_id)).toEqual(['P-win']);
        expect(await store.listPropositions({ limit: 1 })).toHaveLength(1);
        await store.put(baseView('v3', { evidence: [...(baseView('v1').evidence as unknown[]), AGREEMENT_E2] }));
        const after = await store.listPropositions();
        expect(after.map((p) => [p.proposition_id, p.latest_view_id, p.snapshots])).toEqual([
          ['P-win', 'v3', 2],
          ['P-other', 'o1', 1],
        ]);
      });

      it('lists a proposition’s snapshots oldest first', async () => {
        const store = await fresh();
        for (const step of agreementSteps().filter((s) => s.outcome === 'stored')) await store.put(step.view);
        expect(await store.listSnapshots('P-win')).toEqual(['v1', 'v3', 'v5', 'v7', 'v8', 'v9'].map((view_id, seq) => ({ view_id, seq })));
        expect(await store.listSnapshots('P-none')).toEqual([]);
      });
    });

    describe('event log', () => {
      it('appends record and snapshot events and verifies', async () => {
        const store = await fresh();
        expect(await store.verifyChain()).toMatchObject({ ok: true, length: 0 });
        await store.put(baseView('v1'));
        const one = await store.verifyChain();
        expect(one.ok).toBe(true);
        expect(one.length).toBeGreaterThanOrEqual(2);
        await store.put(baseView('v1'));
        expect((await store.verifyChain()).length).toBe(one.length);
        await store.extend('P-win', [{ kind: 'evidence', record: { ...AGREEMENT_E2 } }]);
        const two = await store.verifyChain();
        expect(two.ok).toBe(true);
        expect(two.length).toBeGreaterThan(one.length);
      });
    });

    if (capabilities.persistent && options.reopen) {
      const reopen = options.reopen;
      describe('persistence', () => {
        it('reads everything back after reopening, and the chain still verifies', async () => {
          let store = await fresh();
          for (const step of agreementSteps().filter((s) => s.outcome === 'stored')) await store.put(step.view);
          await store.extend('P-win', [{ kind: 'evidence', record: { ...AGREEMENT_E2, evidence_id: 'e9' } }], { newViewId: 'v10' });
          const before = await Promise.all(['v1', 'v9', 'v10'].map((v) => store.get('P-win', v)));
          const chain = await store.verifyChain();
          store = await reopen(store);
          open.push(store);
          expect(await Promise.all(['v1', 'v9', 'v10'].map((v) => store.get('P-win', v)))).toEqual(before);
          expect((await store.get('P-win'))?.view_id).toBe('v10');
          expect(await store.verifyChain()).toEqual(chain);
          await store.put(baseView('v11'));
          expect((await store.verifyChain()).ok).toBe(true);
        });
      });
    }

    if (options.openReadOnly) {
      const openReadOnly = options.openReadOnly;
      describe('read-only', () => {
        it('reads, and refuses every write with LEDGER_UNAVAILABLE', async () => {
          const store = await fresh();
          await store.put(baseView('v1'));
          const ro = await openReadOnly(store);
          open.push(ro);
          expect(await ro.get('P-win')).toEqual(decodeView(baseView('v1')));
          expect((await refusal(ro.put(baseView('v2')))).code).toBe(STORE_ERROR_CODES.unavailable);
          expect((await refusal(ro.extend('P-win', [{ kind: 'evidence', record: { ...AGREEMENT_E2 } }]))).code).toBe(STORE_ERROR_CODES.unavailable);
          expect(await store.listSnapshots('P-win')).toHaveLength(1);
          expect((await ro.verifyChain()).ok).toBe(true);
        });
      });
    }

    registerEntryCases(options, fresh, (store) => {
      open.push(store);
    });

    describe('lifecycle', () => {
      it('refuses use after close with LEDGER_UNAVAILABLE', async () => {
        const store = await fresh();
        await store.close();
        expect((await refusal(store.get('P-win'))).code).toBe(STORE_ERROR_CODES.unavailable);
        expect((await refusal(store.put(baseView('v1')))).code).toBe(STORE_ERROR_CODES.unavailable);
      });
    });

    describe('round trip of the conformance pack', () => {
      const fixtures = loadFixtures();
      it('has all 52 fixtures', () => {
        expect(fixtures).toHaveLength(52);
      });
      for (const fixture of fixtures) {
        it(`${fixture.name}: reads back equal to the decoded view and evaluates the same`, async () => {
          const store = await fresh();
          const decoded = decodeView(fixture.view);
          const put = await store.put(fixture.view);
          expect(put).toEqual({ status: 'stored', proposition_id: decoded.proposition_id, view_id: decoded.view_id });
          const back = await store.get(decoded.proposition_id, decoded.view_id);
          expect(back).toEqual(expectedRoundTrip(decoded, capabilities.keepsAdapterMeta));
          expect(await store.get(decoded.proposition_id)).toEqual(back);
          const want = normalizeWarrantView(warrantNow(decoded, REFERENCE_V2, fixture.evaluatedAt));
          const got = normalizeWarrantView(warrantNow(back as EvidenceView, REFERENCE_V2, fixture.evaluatedAt));
          expect(got).toEqual(want);
          expect((await store.put(fixture.view)).status).toBe('unchanged');
        });
      }
    });
  });
}
