import { loadFixtures, loadInvalidViews } from '@ewp/conformance/pack';
import { canonicalViewText, decodeView, InvalidEvidenceView, normalizeWarrantView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { InMemoryStore } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { BaseStoreLedger } from './base-store-ledger.js';
import { ImmutableRecordError, MissingViewError, StoreUnavailableError } from '@ewp/ledger';

const fixtures = loadFixtures();

function fixture(name: string): Record<string, unknown> {
  const found = fixtures.find((f) => f.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return structuredClone(found.view);
}

describe('BaseStoreLedger over InMemoryStore', () => {
  it('stores every fixture losslessly and evaluates it like @ewp/core', async () => {
    const ledger = new BaseStoreLedger(new InMemoryStore());
    for (const f of fixtures) {
      const direct = decodeView(f.view);
      // Fixtures share proposition ids and view ids with other content: one ledger per fixture.
      const own = new BaseStoreLedger(new InMemoryStore());
      const put = await own.put(f.view);
      expect(put).toEqual({ status: 'stored', proposition_id: direct.proposition_id, view_id: direct.view_id });
      const back = await own.get(direct.proposition_id);
      expect(back).toEqual(direct);
      expect(canonicalViewText(back!)).toBe(canonicalViewText(direct));
      expect(normalizeWarrantView(warrantNow(back!, REFERENCE_V2, f.evaluatedAt))).toEqual(
        normalizeWarrantView(warrantNow(direct, REFERENCE_V2, f.evaluatedAt)),
      );
      expect((await own.put(f.view)).status).toBe('unchanged');
    }
    expect(await ledger.listPropositions()).toEqual([]);
  });

  it('refuses every invalid view and writes nothing', async () => {
    const inner = new InMemoryStore();
    const ledger = new BaseStoreLedger(inner);
    for (const bad of loadInvalidViews()) {
      if (bad.name === 'unparsable_evaluated_at') continue; // valid view; its T is what is refused
      await expect(ledger.put(bad.view)).rejects.toBeInstanceOf(InvalidEvidenceView);
    }
    expect(await inner.search(['ewp'], { limit: 100 })).toEqual([]);
    expect(await ledger.verifyChain()).toMatchObject({ ok: true, length: 0, head: '0'.repeat(64) });
  });

  it('keeps adapter_meta across the round trip', async () => {
    const ledger = new BaseStoreLedger(new InMemoryStore());
    const view = fixture('p1-false-supersession');
    view.adapter_meta = { store: 'x', nested: { list: [1, 'two', null] } };
    await ledger.put(view);
    expect((await ledger.get('P-server01-2019'))!.adapter_meta).toEqual(view.adapter_meta);
  });

  // docs/spec/store-contract.md §1.7, the cross-store agreement sequence.
  it('passes the cross-store agreement sequence', async () => {
    const ledger = new BaseStoreLedger(new InMemoryStore());
    const base = fixture('08-verified-now');
    base.subjects = ['server01', 'srv-1'];
    (base.checks as Array<Record<string, unknown>>)[0]!.subjects = ['server01', 'srv-1'];
    const v = (id: string, change: (view: Record<string, unknown>) => void = () => {}) => {
      const copy = structuredClone(base);
      copy.view_id = id;
      change(copy);
      return copy;
    };
    const evidence = (view: Record<string, unknown>) => view.evidence as Array<Record<string, unknown>>;
    const e2 = (view: Record<string, unknown>) => {
      const first = evidence(view)[0]!;
      evidence(view).push({ ...structuredClone(first), evidence_id: 'e2', content: 'second reading' });
    };
    const refused = async (view: unknown) => {
      const error = await ledger.put(view).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImmutableRecordError);
      expect((error as ImmutableRecordError).code).toBe('EWP_REFUSE_IMMUTABLE_RECORD');
    };
    expect((await ledger.put(v('v1'))).status).toBe('stored');
    await refused(v('v2', (x) => ((x.checks as Array<Record<string, unknown>>)[0]!.result = 'opposes')));
    expect((await ledger.put(v('v3', e2))).status).toBe('stored');
    await refused(
      // Every record of the view uses source `winrm`, now with another lineage: valid as a view,
      // refused by the ledger because `winrm` already names other content.
      v('v4', (x) => {
        const other = structuredClone(evidence(x)[0]!);
        other.evidence_id = 'e3';
        evidence(x).push(other);
        for (const kind of ['assertions', 'evidence', 'checks']) {
          for (const r of x[kind] as Array<Record<string, Record<string, unknown>>>) r.source!.lineage_id = 'L-other';
        }
      }),
    );
    const c1 = (status: string, pids: string[]) => (x: Record<string, unknown>) => {
      x.conflicts = [{ conflict_id: 'c1', proposition_ids: pids, status, note: '' }];
    };
    expect((await ledger.put(v('v5', c1('open', ['P-win'])))).status).toBe('stored');
    await refused(v('v6', c1('open', ['P-win', 'P-x'])));
    expect((await ledger.put(v('v7', c1('resolved', ['P-win'])))).status).toBe('stored');
    expect(
      (
        await ledger.put(
          v('v8', (x) => {
            e2(x);
            evidence(x).reverse();
          }),
        )
      ).status,
    ).toBe('stored');
    expect(
      (
        await ledger.put(
          v('v9', (x) => {
            x.subjects = ['srv-1', 'server01'];
            (x.checks as Array<Record<string, unknown>>)[0]!.subjects = ['srv-1', 'server01'];
          }),
        )
      ).status,
    ).toBe('stored');
    expect((await ledger.put(v('v1'))).status).toBe('unchanged');
    await refused(v('v1', (x) => (x.degraded = true)));
    expect((await ledger.listSnapshots('P-win')).map((s) => s.view_id)).toEqual(['v1', 'v3', 'v5', 'v7', 'v8', 'v9']);
    // A no-op re-put of an older snapshot does not make it latest again.
    expect((await ledger.get('P-win'))!.view_id).toBe('v9');
    expect((await ledger.get('P-win', 'v7'))!.conflicts[0]!.status).toBe('resolved');
    expect((await ledger.verifyChain()).ok).toBe(true);
  });

  it('keeps ids local to a proposition', async () => {
    const ledger = new BaseStoreLedger(new InMemoryStore());
    const a = fixture('08-verified-now');
    const b = fixture('08-verified-now');
    b.proposition_id = 'P-other';
    for (const r of [...(b.assertions as Array<Record<string, unknown>>), ...(b.evidence as Array<Record<string, unknown>>)]) {
      r.proposition_id = 'P-other';
      r.text = 'different text';
      r.content = 'different content';
    }
    await ledger.put(a);
    await ledger.put(b);
    expect((await ledger.get('P-win'))!.assertions[0]!.text).toBe('server01 runs Windows Server 2022');
    expect((await ledger.get('P-other'))!.assertions[0]!.text).toBe('different text');
  });

  it('extends the latest snapshot and refuses an unknown proposition', async () => {
    const ledger = new BaseStoreLedger(new InMemoryStore());
    await ledger.put(fixture('08-verified-now'));
    const latest = (await ledger.get('P-win'))!;
    const extra = { ...latest.evidence[0]!, evidence_id: 'e9', content: 'again' };
    const result = await ledger.extend('P-win', [{ kind: 'evidence', record: extra }], { newViewId: 'v-next' });
    expect(result).toEqual({ status: 'stored', proposition_id: 'P-win', view_id: 'v-next' });
    expect((await ledger.get('P-win'))!.evidence.map((e) => e.evidence_id)).toEqual(['e1', 'e9']);
    const derived = await ledger.extend('P-win', [{ kind: 'lineage', record: { from_id: 'P-win', to_id: 'P-y', kind: 'derived_from' } }]);
    expect(derived.view_id).toMatch(/^[0-9a-f]{16,}|.+/);
    expect((await ledger.get('P-win'))!.lineage).toHaveLength(1);
    const missing = await ledger.extend('P-none', []).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MissingViewError);
  });

  it('lists propositions newest first with a query', async () => {
    const ledger = new BaseStoreLedger(new InMemoryStore());
    await ledger.put(fixture('08-verified-now'));
    await ledger.put(fixture('02-fork-x'));
    const all = await ledger.listPropositions();
    expect(all.map((p) => p.proposition_id)).toEqual(['P-x', 'P-win']);
    expect(all[1]).toEqual({
      proposition_id: 'P-win',
      latest_view_id: 'v-ver',
      assertions: ['server01 runs Windows Server 2022'],
      snapshots: 1,
    });
    expect((await ledger.listPropositions({ query: 'WINDOWS' })).map((p) => p.proposition_id)).toEqual(['P-win']);
    expect(await ledger.listPropositions({ limit: 1 })).toHaveLength(1);
  });

  it('detects a tampered chain entry', async () => {
    const inner = new InMemoryStore();
    const ledger = new BaseStoreLedger(inner);
    await ledger.put(fixture('08-verified-now'));
    await ledger.put(fixture('02-fork-x'));
    const before = await ledger.verifyChain();
    expect(before.ok).toBe(true);
    // The chain entries travel in the commit records: forge the first one.
    const [first] = (await inner.search(['ewp', 'records'], { filter: { family: 'commit', position: 1 } })) as { key: string; value: Record<string, string> }[];
    await inner.put(['ewp', 'records'], first!.key, { ...first!.value, body: first!.value.body!.replace('v-ver', 'forged') });
    expect(await ledger.verifyChain()).toMatchObject({ ok: false, firstBadIndex: 0 });
  });

  it('fails a read of a damaged snapshot instead of evaluating it', async () => {
    const inner = new InMemoryStore();
    const ledger = new BaseStoreLedger(inner);
    await ledger.put(fixture('08-verified-now'));
    const rows = (await inner.search(['ewp', 'records'], { filter: { family: 'row' }, limit: 100 })) as { key: string; value: Record<string, string> }[];
    const row = rows.find((r) => r.value.body!.includes('{"snapshot":'))!;
    await inner.put(['ewp', 'records'], row.key, { ...row.value, body: row.value.body!.replace('604800', '604801') });
    await expect(ledger.get('P-win')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect((await ledger.verifyChain()).ok).toBe(false);
  });

  it('sees a commit made through another ledger on the same store', async () => {
    const inner = new InMemoryStore();
    const a = new BaseStoreLedger(inner);
    const b = new BaseStoreLedger(inner);
    await a.put(fixture('08-verified-now'));
    expect((await a.get('P-win'))!.view_id).toBe('v-ver');
    const latest = (await b.get('P-win'))!;
    await b.extend('P-win', [{ kind: 'evidence', record: { ...latest.evidence[0]!, evidence_id: 'e2' } }], { newViewId: 'v-2' });
    expect((await a.get('P-win'))!.view_id).toBe('v-2');
    // A cached view is a copy: mutating what get() returned changes nothing stored.
    const copy = (await a.get('P-win'))!;
    copy.evidence.length = 0;
    expect((await a.get('P-win'))!.evidence).toHaveLength(2);
  });

  it('refuses a namespace root that LangGraph cannot store', () => {
    expect(() => new BaseStoreLedger(new InMemoryStore(), { namespaceRoot: 'a.b' })).toThrow(/namespaceRoot/);
  });
});
