import type { AdapterSubject } from './memory-adapter.js';
import { type AdapterConformanceReport, adapterFixtureNames, runAdapterConformanceReport } from './run-adapter-conformance.js';

/**
 * Registers the adapter suite with vitest: one test per fixture (so one failure never hides the
 * rest), one for native records, and one that fails when a listed loss no longer happens.
 * `onReport` receives the full report (e.g. to check a committed loss report against it).
 * Call it with top-level `await` from a `*.conformance.test.ts` file; vitest is loaded lazily so
 * the rest of this module works without it (the `ewp conformance` command).
 */
export async function runAdapterConformance(subject: AdapterSubject, options: { onReport?: (report: AdapterConformanceReport) => void } = {}): Promise<void> {
  const { describe, it, expect, beforeAll } = await import('vitest');
  describe(`adapter conformance: ${subject.name}`, () => {
    let report: AdapterConformanceReport;
    beforeAll(async () => {
      report = await runAdapterConformanceReport(subject);
      options.onReport?.(report);
    }, 600_000);
    for (const name of adapterFixtureNames()) {
      it(`round-trips ${name}`, () => {
        expect(report.errors.filter((e) => e.fixture === name)).toEqual([]);
        expect(report.unexpected.filter((l) => l.fixture === name)).toEqual([]);
      });
    }
    if (subject.capabilities.snapshots) {
      it('keeps the snapshot-store contract (cross-store agreement sequence)', () => {
        expect(report.errors.filter((e) => e.fixture === 'snapshot-contract')).toEqual([]);
      });
    }
    if (subject.capabilities.nativeRecords) {
      it('reads native records as untrusted and DEGRADED', () => {
        expect(report.errors.filter((e) => e.fixture === 'native-records')).toEqual([]);
      });
    }
    it('lists no loss that no longer happens', () => {
      expect(report.stale).toEqual([]);
    });
  });
}
