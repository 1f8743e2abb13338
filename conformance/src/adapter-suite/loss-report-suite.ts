import { basename, dirname } from 'node:path';
import { lossReportIsCurrent, writeLossReport } from './loss-report-file.js';
import type { AdapterSubject } from './memory-adapter.js';
import type { AdapterConformanceReport } from './run-adapter-conformance.js';
import { runAdapterConformance } from './vitest-suite.js';

/**
 * Registers the adapter suite for each subject, then one test that the committed loss report at
 * `reportPath` (markdown and its `.json` twin) is current for exactly these subjects. With
 * `EWP_UPDATE_LOSS_REPORTS=1` the test rewrites the report first. `label` names the adapters in
 * the test title (e.g. "the Zep adapter").
 */
export async function runAdapterConformanceWithLossReport(subjects: AdapterSubject[], reportPath: string, label: string): Promise<void> {
  const { it, expect } = await import('vitest');
  const reports: AdapterConformanceReport[] = [];
  for (const subject of subjects) await runAdapterConformance(subject, { onReport: (r) => reports.push(r) });

  it(`${basename(dirname(reportPath))}/${basename(reportPath)} and .json are current for ${label}`, () => {
    const expected = Object.fromEntries(subjects.map((s) => [s.name, s.expectedLoss]));
    expect(reports.map((r) => r.adapter)).toEqual(subjects.map((s) => s.name));
    if (process.env.EWP_UPDATE_LOSS_REPORTS === '1') writeLossReport(reportPath, reports, expected);
    const check = lossReportIsCurrent(reportPath, reports, expected);
    expect(check.committed.json).toBe(check.fresh.json);
    expect(check.committed.markdown).toBe(check.fresh.markdown);
  });
}
