/**
 * The committed docs/loss-reports.md (and its JSON twin) must equal a live run of every adapter
 * installed in this workspace, whichever adapters exist: discovery is the command's own. Refresh with
 * `ewp conformance --report docs/loss-reports.md` from the repository root, or run this file with
 * EWP_UPDATE_LOSS_REPORTS=1.
 */
import { fileURLToPath } from 'node:url';
import {
  type AdapterConformanceReport,
  type AdapterSubject,
  LOSS_REPORT_COMMAND,
  lossReportIsCurrent,
  runAdapterConformanceReport,
  writeLossReport,
} from '@ewp/conformance/adapter-suite';
import { describe, expect, it } from 'vitest';
import { ADAPTER_MODULES } from './conformance.js';

const reportPath = fileURLToPath(new URL('../../../../docs/loss-reports.md', import.meta.url));

describe('docs/loss-reports.md', () => {
  it(`equals a live \`${LOSS_REPORT_COMMAND}\` over every installed adapter`, async () => {
    const subjects: AdapterSubject[] = [];
    for (const specifier of ADAPTER_MODULES) {
      const mod = (await import(specifier)) as { conformanceSubjects: () => AdapterSubject[] };
      subjects.push(...mod.conformanceSubjects());
    }
    expect(subjects.length).toBeGreaterThan(0);
    const reports: AdapterConformanceReport[] = [];
    for (const subject of subjects) reports.push(await runAdapterConformanceReport(subject));
    const expected = Object.fromEntries(subjects.map((s) => [s.name, s.expectedLoss]));
    if (process.env.EWP_UPDATE_LOSS_REPORTS === '1') writeLossReport(reportPath, reports, expected, LOSS_REPORT_COMMAND);
    const check = lossReportIsCurrent(reportPath, reports, expected, { whole: true });
    expect(check.committed.markdown, `stale: run \`${LOSS_REPORT_COMMAND}\` from the repository root`).toBe(check.fresh.markdown);
    expect(check.committed.json).toBe(check.fresh.json);
  }, 300_000);
});
