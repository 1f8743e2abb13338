import { decodeView, type EvidenceView } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import {
  type AdapterSubject,
  adapterFixtures,
  diffViews,
  type ExpectedLoss,
  lossReportJson,
  type MemoryAdapter,
  parseExpectedLossFile,
  renderLossReportMarkdown,
  runAdapterConformanceReport,
  runSnapshotContract,
} from './index.js';

/**
 * A map-backed store whose write and read steps can be made lossy on purpose: the suite must
 * catch each kind of loss and classify it. (This tests the suite, not a store.)
 */
function mapSubject(options: {
  ingest?: (v: EvidenceView) => EvidenceView;
  mapBack?: (v: EvidenceView) => EvidenceView;
  search?: (v: EvidenceView) => EvidenceView;
  native?: EvidenceView;
  expected?: ExpectedLoss[];
}): AdapterSubject {
  return {
    name: 'map',
    capabilities: { search: options.search !== undefined, nativeRecords: options.native !== undefined },
    expectedLoss: { adapter: 'map', losses: options.expected ?? [] },
    plantNative: async () => {},
    async create(): Promise<MemoryAdapter> {
      const stored = new Map<string, EvidenceView>();
      return {
        async put(view) {
          const v = view as EvidenceView;
          stored.set(v.proposition_id, structuredClone((options.ingest ?? ((x) => x))(v)));
        },
        async get(pid) {
          return (options.mapBack ?? ((v) => v))(structuredClone(stored.get(pid)!));
        },
        async search(pid) {
          return options.search!(structuredClone(stored.get(pid)!));
        },
        async readNative() {
          return options.native!;
        },
        async rawRecords(pid) {
          return stored.get(pid);
        },
      };
    },
  };
}

const some = ['02-fork-x', '08-verified-now', '06-derived'];

describe('runAdapterConformanceReport', () => {
  it('passes a lossless store with no losses', async () => {
    const report = await runAdapterConformanceReport(mapSubject({}), { fixtures: some });
    expect(report).toMatchObject({ ok: true, fixtures: 3, losses: [], errors: [] });
    expect(report.checks.roundTrip).toBe(3);
  });

  it('classifies a field the mapping drops as ADAPTER_MAP_LOSS and fails until it is listed', async () => {
    const drop = (v: EvidenceView) => ({ ...v, assertions: v.assertions.map((a) => ({ ...a, asserted_by: 'store' })) });
    const failing = await runAdapterConformanceReport(mapSubject({ mapBack: drop }), { fixtures: some });
    expect(failing.ok).toBe(false);
    expect(new Set(failing.unexpected.map((l) => `${l.class} ${l.field}`))).toEqual(new Set(['ADAPTER_MAP_LOSS assertions[*].asserted_by']));
    const listed = await runAdapterConformanceReport(
      mapSubject({ mapBack: drop, expected: [{ class: 'ADAPTER_MAP_LOSS', fixture: '*', field: 'assertions[*].asserted_by', reason: 'test' }] }),
      { fixtures: some },
    );
    expect(listed.ok).toBe(true);
  });

  it('classifies a field the store never kept as INGEST_LOSS', async () => {
    const drop = (v: EvidenceView) => ({ ...v, freshness_policy_seconds: 12345 });
    const report = await runAdapterConformanceReport(mapSubject({ ingest: drop }), { fixtures: ['08-verified-now'] });
    expect(report.unexpected.map((l) => `${l.class} ${l.field}`)).toContain('INGEST_LOSS freshness_policy_seconds');
  });

  it('fails on a listed loss that no longer happens', async () => {
    const stale: ExpectedLoss = { class: 'INGEST_LOSS', fixture: '*', field: 'evidence[*].content', reason: 'fixed since' };
    const report = await runAdapterConformanceReport(mapSubject({ expected: [stale] }), { fixtures: some });
    expect(report.ok).toBe(false);
    expect(report.stale).toEqual([stale]);
  });

  it('reports WARRANT_MISMATCH when the axes differ after the round trip', async () => {
    const flip = (v: EvidenceView) => ({ ...v, checks: v.checks.map((c) => ({ ...c, result: 'opposes' as const })) });
    const report = await runAdapterConformanceReport(mapSubject({ mapBack: flip }), { fixtures: ['08-verified-now'] });
    expect(report.unexpected.some((l) => l.class === 'WARRANT_MISMATCH' && l.field.startsWith('warrant.'))).toBe(true);
  });

  it('reports RETRIEVAL_LOSS for a partial search that does not say DEGRADED, and not for one that does', async () => {
    const firstOnly = (v: EvidenceView) => ({ ...v, assertions: v.assertions.slice(0, 1), evidence: [] });
    const silent = await runAdapterConformanceReport(mapSubject({ search: firstOnly }), { fixtures: ['02-fork-x'] });
    expect(silent.unexpected.map((l) => l.class)).toEqual(['RETRIEVAL_LOSS']);
    const honest = await runAdapterConformanceReport(mapSubject({ search: (v) => ({ ...firstOnly(v), degraded: true }) }), { fixtures: ['02-fork-x'] });
    expect(honest.ok).toBe(true);
    expect(honest.checks.search).toBe(1);
  });

  it('re-reads after store maintenance: a changed view fails, a store note is only an observation', async () => {
    const stored = new Map<string, EvidenceView>();
    const subject = (maintain: (v: EvidenceView) => EvidenceView): AdapterSubject => ({
      name: 'kept',
      capabilities: { search: false, nativeRecords: false, metaNamespace: 'kept' },
      expectedLoss: { adapter: 'kept', losses: [] },
      create: async () => ({
        put: async (v) => void stored.set((v as EvidenceView).proposition_id, structuredClone(v as EvidenceView)),
        get: async (pid) => structuredClone(stored.get(pid)!),
      }),
      maintain: async (_adapter, v) => void stored.set(v.proposition_id, maintain(stored.get(v.proposition_id)!)),
    });
    const noted = await runAdapterConformanceReport(
      subject((v) => ({ ...v, adapter_meta: { ...v.adapter_meta, kept: { store_notes: ['expired'] } } })),
      { fixtures: ['08-verified-now'] },
    );
    expect(noted.ok).toBe(true);
    expect(noted.losses.map((l) => l.class)).toEqual(['EXPECTED_DIVERGENCE']);
    expect(noted.checks.maintenance).toBe(1);
    const broken = await runAdapterConformanceReport(
      subject((v) => ({ ...v, checks: [] })),
      { fixtures: ['08-verified-now'] },
    );
    expect(broken.ok).toBe(false);
    expect(broken.unexpected.some((l) => l.class === 'WARRANT_MISMATCH')).toBe(true);
  });

  it('refuses native records read with a trusted origin', async () => {
    const base = decodeView(adapterFixtures().find((f) => f.name === '08-verified-now')!.raw);
    const report = await runAdapterConformanceReport(mapSubject({ native: { ...base, retrieval_scope: 'x' } }), { fixtures: [] });
    expect(report.errors.map((e) => e.fixture)).toEqual(['native-records']);
  });
});

describe('runSnapshotContract', () => {
  it('catches a store that overwrites snapshots and never refuses', async () => {
    const stored = new Map<string, EvidenceView>();
    const naive: MemoryAdapter = {
      put: async (v) => void stored.set((v as EvidenceView).proposition_id, v as EvidenceView),
      get: async (pid) => stored.get(pid)!,
    };
    const failures = await runSnapshotContract(naive);
    expect(failures).toContain('v2 check k1 reused with result opposes: stored, expected a refusal');
    expect(failures).toContain('v1 again with degraded: true: stored, expected a refusal');
    expect(failures.some((f) => f.startsWith('reading v1 by id') || f.startsWith('v1 read by id'))).toBe(true);
  });
});

describe('diffViews', () => {
  const view = decodeView(adapterFixtures().find((f) => f.name === '02-fork-x')!.raw);
  it('ignores record order and the adapter namespace', () => {
    const shuffled = { ...view, assertions: [...view.assertions].reverse(), adapter_meta: { mine: { score: 1 } } };
    expect(diffViews(view, shuffled, 'mine')).toEqual([]);
  });
  it('names missing records and changed fields with generalised paths', () => {
    const a0 = view.assertions[0]!;
    const changed = { ...view, assertions: [{ ...a0, source: { ...a0.source, lineage_id: 'other' } }] };
    const fields = diffViews(view, changed).map((d) => d.field);
    expect(fields).toContain('assertions[*].source.lineage_id');
    if (view.assertions.length > 1) expect(fields).toContain('assertions[*]');
  });
  it('tells -0 from 0 in a confidence', () => {
    const a0 = view.assertions[0]!;
    const zero = { ...view, assertions: [{ ...a0, assertion_confidence: 0 }] };
    const negZero = { ...view, assertions: [{ ...a0, assertion_confidence: -0 }] };
    expect(diffViews(zero, negZero).map((d) => d.field)).toEqual(['assertions[*].assertion_confidence']);
  });
});

describe('expected-loss files and reports', () => {
  it('refuses a malformed expected-loss file naming the field', () => {
    expect(() => parseExpectedLossFile({ adapter: 'x', losses: [{ class: 'LOST', fixture: '*', field: 'f', reason: 'r' }] })).toThrow(/\$\.losses\[0\]\.class/);
    expect(() => parseExpectedLossFile({ adapter: '', losses: [] })).toThrow(/\$\.adapter/);
  });
  it('renders the same Markdown for the same reports', async () => {
    const report = await runAdapterConformanceReport(mapSubject({}), { fixtures: ['02-fork-x'] });
    const json = lossReportJson([report], {});
    expect(renderLossReportMarkdown(json)).toBe(renderLossReportMarkdown(JSON.parse(JSON.stringify(json))));
    expect(renderLossReportMarkdown(json)).toContain('| map | 1 | 1 | 1 | 0 (0) | 0 | 0 | — | 0 | 0 | 0 | pass |');
  });
});
