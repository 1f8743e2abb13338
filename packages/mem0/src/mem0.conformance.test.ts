import { fileURLToPath } from 'node:url';
import { type AdapterConformanceReport, lossReportIsCurrent, runAdapterConformance, writeLossReport } from '@ewp/conformance/adapter-suite';
import { expect, it } from 'vitest';
import { mem0HostedSubject, mem0OssSubject } from './conformance.js';

const subjects = [mem0OssSubject(), mem0HostedSubject()];
const reports: AdapterConformanceReport[] = [];
for (const subject of subjects) await runAdapterConformance(subject, { onReport: (r) => reports.push(r) });

// Refresh with `EWP_UPDATE_LOSS_REPORTS=1 npx vitest run src/mem0.conformance.test.ts`, or `ewp conformance --report docs/loss-reports.md`.
it('docs/loss-reports.md and .json are current for the Mem0 adapters', () => {
  const path = fileURLToPath(new URL('../../../docs/loss-reports.md', import.meta.url));
  const expected = Object.fromEntries(subjects.map((s) => [s.name, s.expectedLoss]));
  expect(reports.map((r) => r.adapter)).toEqual(subjects.map((s) => s.name));
  if (process.env.EWP_UPDATE_LOSS_REPORTS === '1') writeLossReport(path, reports, expected);
  const check = lossReportIsCurrent(path, reports, expected);
  expect(check.committed.json).toBe(check.fresh.json);
  expect(check.committed.markdown).toBe(check.fresh.markdown);
});
