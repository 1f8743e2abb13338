import { decodeView, type EvidenceView, isTrustedOrigin, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';
import { diffViews, type FieldDifference } from './diff-views.js';
import { type ExpectedLoss, isObservation, lossMatches, type ObservedLoss } from './loss.js';
import { type AdapterSubject, type MemoryAdapter, readBack } from './memory-adapter.js';
import { type AdapterFixture, adapterFixtures } from './pack-fixtures.js';
import { runSnapshotContract } from './snapshot-contract.js';

/** What one adapter did with the whole pack. */
export interface AdapterConformanceReport {
  adapter: string;
  /** Fixtures written and read back. */
  fixtures: number;
  /** How many checks of each family ran. */
  checks: { roundTrip: number; warrant: number; search: number; searchPartial: number; maintenance: number; native: number; snapshots: number };
  /** Every loss observed (observations included), sorted. */
  losses: ObservedLoss[];
  /** Losses not covered by the expected-loss list (observations excluded): failures. */
  unexpected: ObservedLoss[];
  /** Listed losses that did not happen: failures, so the list only shrinks. */
  stale: ExpectedLoss[];
  /** Fixtures (or checks) that threw or broke a rule that is not a loss, e.g. a trusted native origin. */
  errors: { fixture: string; message: string }[];
  /** No unexpected loss, no stale entry, no error. */
  ok: boolean;
}

/** The fixed T for native-record checks, so reports are reproducible. */
const NATIVE_T = '2030-01-01T00:00:00Z';
const NATIVE_FIXTURE = 'native-records';
const SNAPSHOT_FIXTURE = 'snapshot-contract';

function normative(w: WarrantView): Record<string, string> {
  const { acceptance, conflict, verification, currency, sufficiency } = w.warrant;
  return { proposition_id: w.proposition_id, view_id: w.view_id, acceptance, conflict, verification, currency, sufficiency };
}

function classifyDifference(diff: FieldDifference, raw: string | undefined): 'INGEST_LOSS' | 'ADAPTER_MAP_LOSS' {
  if (raw === undefined || diff.written === undefined) return 'ADAPTER_MAP_LOSS';
  // The store still holds the written value somewhere: the mapping back lost it.
  const needle = typeof diff.written === 'string' ? JSON.stringify(diff.written).slice(1, -1) : JSON.stringify(diff.written);
  return raw.includes(needle) ? 'ADAPTER_MAP_LOSS' : 'INGEST_LOSS';
}

function short(value: unknown): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function recordCount(view: EvidenceView): number {
  return view.assertions.length + view.evidence.length;
}

function searchQuery(view: EvidenceView): string {
  return view.assertions[0]?.text || view.evidence[0]?.content || view.proposition_id;
}

async function withAdapter<T>(subject: AdapterSubject, run: (adapter: MemoryAdapter) => Promise<T>): Promise<T> {
  const adapter = await subject.create();
  try {
    return await run(adapter);
  } finally {
    await adapter.close?.();
  }
}

async function checkFixture(subject: AdapterSubject, fixture: AdapterFixture, report: AdapterConformanceReport): Promise<ObservedLoss[]> {
  const written = decodeView(fixture.raw);
  const losses: ObservedLoss[] = [];
  const ns = subject.capabilities.metaNamespace;
  await withAdapter(subject, async (adapter) => {
    await adapter.put(written);
    const read = await readBack(adapter, written.proposition_id, written.view_id);
    report.checks.roundTrip++;
    const diffs = diffViews(written, read, ns);
    let raw: string | undefined;
    if (diffs.length > 0 && adapter.rawRecords) raw = JSON.stringify(await adapter.rawRecords(written.proposition_id));
    for (const diff of diffs) {
      losses.push({
        class: classifyDifference(diff, raw),
        fixture: fixture.name,
        field: diff.field,
        detail: `${diff.path}: wrote ${short(diff.written)}, read ${short(diff.read)}`,
      });
    }
    const before = normative(warrantNow(written, REFERENCE_V2, fixture.evaluatedAt));
    const after = normative(warrantNow(read, REFERENCE_V2, fixture.evaluatedAt));
    report.checks.warrant++;
    for (const key of Object.keys(before)) {
      if (before[key] !== after[key]) {
        losses.push({
          class: 'WARRANT_MISMATCH',
          fixture: fixture.name,
          field: `warrant.${key}`,
          detail: `${key}: ${before[key]} written, ${after[key]} read back`,
        });
      }
    }
    if (subject.capabilities.search && adapter.search && recordCount(written) >= 2) {
      const found = await adapter.search(written.proposition_id, searchQuery(written), { limit: 1, viewId: written.view_id });
      report.checks.search++;
      const sufficiency = warrantNow(found, REFERENCE_V2, fixture.evaluatedAt).warrant.sufficiency;
      if (recordCount(found) < recordCount(written) && sufficiency === 'DEGRADED') report.checks.searchPartial++;
      if (recordCount(found) < recordCount(written) && sufficiency !== 'DEGRADED') {
        losses.push({
          class: 'RETRIEVAL_LOSS',
          fixture: fixture.name,
          field: 'search',
          detail: `search returned ${recordCount(found)} of ${recordCount(written)} records with sufficiency ${sufficiency}`,
        });
      }
    }
    if (subject.maintain) {
      await subject.maintain(adapter, written);
      const after = await readBack(adapter, written.proposition_id, written.view_id);
      report.checks.maintenance++;
      for (const diff of diffViews(written, after, ns)) {
        losses.push({
          class: 'INGEST_LOSS',
          fixture: fixture.name,
          field: diff.field,
          detail: `after store maintenance, ${diff.path}: wrote ${short(diff.written)}, read ${short(diff.read)}`,
        });
      }
      const axes = normative(warrantNow(after, REFERENCE_V2, fixture.evaluatedAt));
      for (const key of Object.keys(before)) {
        if (before[key] !== axes[key]) {
          losses.push({
            class: 'WARRANT_MISMATCH',
            fixture: fixture.name,
            field: `warrant.${key}`,
            detail: `after store maintenance ${key}: ${before[key]} written, ${axes[key]} read back`,
          });
        }
      }
      const notes = ns === undefined ? undefined : (after.adapter_meta[ns] as Record<string, unknown> | undefined)?.store_notes;
      if (Array.isArray(notes) && notes.length > 0) {
        losses.push({
          class: 'EXPECTED_DIVERGENCE',
          fixture: fixture.name,
          field: 'store_notes',
          detail: `the store marks ${notes.length} record(s) expired/invalid; the warrant is unchanged (${before.currency}/${before.acceptance})`,
        });
      }
    }
  });
  return losses;
}

async function checkNative(subject: AdapterSubject, report: AdapterConformanceReport): Promise<ObservedLoss[]> {
  const losses: ObservedLoss[] = [];
  const pid = 'P-native';
  await withAdapter(subject, async (adapter) => {
    if (!subject.plantNative || !adapter.readNative) throw new Error('nativeRecords is on but plantNative/readNative is missing');
    await subject.plantNative(adapter, pid);
    const view = await adapter.readNative(pid);
    report.checks.native++;
    const records = [...view.assertions, ...view.evidence, ...view.checks];
    if (records.length === 0) throw new Error('native records read back as an empty view');
    const trusted = records.filter((r) => isTrustedOrigin(r.source.origin_type));
    if (trusted.length > 0) throw new Error(`native records read with a trusted origin: ${trusted.map((r) => r.source.origin_type).join(', ')}`);
    const warrant = warrantNow(view, REFERENCE_V2, NATIVE_T).warrant;
    if (warrant.sufficiency !== 'DEGRADED') throw new Error(`native view is ${warrant.sufficiency}, expected DEGRADED`);
    if (warrant.verification !== 'NONE') throw new Error(`native view has verification ${warrant.verification}`);
    if (warrant.currency === 'SUPERSEDED') throw new Error('a store-local invalidation made the native view SUPERSEDED');
    const ns = subject.capabilities.metaNamespace;
    const notes = ns === undefined ? undefined : (view.adapter_meta[ns] as Record<string, unknown> | undefined)?.store_notes;
    if (Array.isArray(notes) && notes.length > 0) {
      losses.push({
        class: 'EXPECTED_DIVERGENCE',
        fixture: NATIVE_FIXTURE,
        field: 'store_notes',
        detail: `store marks ${notes.length} record(s) invalid/expired; warrant currency stays ${warrant.currency}`,
      });
    }
  });
  return losses;
}

function sortLosses(list: ObservedLoss[]): ObservedLoss[] {
  return [...list].sort((a, b) =>
    `${a.class}\u0000${a.fixture}\u0000${a.field}\u0000${a.detail}` < `${b.class}\u0000${b.fixture}\u0000${b.field}\u0000${b.detail}` ? -1 : 1,
  );
}

/**
 * Runs the adapter suite outside any test runner: writes every pack fixture through a fresh
 * adapter, reads it back, diffs it field by field, re-evaluates both views, probes search and
 * native records per the capabilities, and compares what it saw with the expected-loss list.
 */
export async function runAdapterConformanceReport(subject: AdapterSubject, options: { fixtures?: string[] } = {}): Promise<AdapterConformanceReport> {
  const report: AdapterConformanceReport = {
    adapter: subject.name,
    fixtures: 0,
    checks: { roundTrip: 0, warrant: 0, search: 0, searchPartial: 0, maintenance: 0, native: 0, snapshots: 0 },
    losses: [],
    unexpected: [],
    stale: [],
    errors: [],
    ok: false,
  };
  const all: ObservedLoss[] = [];
  const fixtures = adapterFixtures().filter((f) => options.fixtures === undefined || options.fixtures.includes(f.name));
  for (const fixture of fixtures) {
    try {
      all.push(...(await checkFixture(subject, fixture, report)));
      report.fixtures++;
    } catch (error) {
      report.errors.push({ fixture: fixture.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  if (subject.capabilities.snapshots) {
    try {
      const failures = await withAdapter(subject, runSnapshotContract);
      report.checks.snapshots++;
      for (const f of failures) report.errors.push({ fixture: SNAPSHOT_FIXTURE, message: f });
    } catch (error) {
      report.errors.push({ fixture: SNAPSHOT_FIXTURE, message: error instanceof Error ? error.message : String(error) });
    }
  }
  if (subject.capabilities.nativeRecords) {
    try {
      all.push(...(await checkNative(subject, report)));
    } catch (error) {
      report.errors.push({ fixture: NATIVE_FIXTURE, message: error instanceof Error ? error.message : String(error) });
    }
  }
  await subject.dispose?.();
  report.losses = sortLosses(all);
  report.unexpected = report.losses.filter((loss) => !isObservation(loss) && !subject.expectedLoss.losses.some((e) => lossMatches(e, loss)));
  const checked = new Set(fixtures.map((f) => f.name));
  if (subject.capabilities.nativeRecords) checked.add(NATIVE_FIXTURE);
  report.stale = subject.expectedLoss.losses.filter(
    (e) => (e.fixture === '*' || checked.has(e.fixture)) && !report.losses.some((loss) => lossMatches(e, loss)),
  );
  report.ok = report.unexpected.length === 0 && report.stale.length === 0 && report.errors.length === 0;
  return report;
}

/** The fixture names the suite runs, in order. */
export function adapterFixtureNames(): string[] {
  return adapterFixtures().map((f) => f.name);
}
