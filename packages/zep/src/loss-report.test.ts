import { fileURLToPath } from 'node:url';
import { lossReportIsCurrent, runAdapterConformanceReport, writeLossReport } from '@ewp/conformance/adapter-suite';
import { expect, it } from 'vitest';
import { zepSubject } from './conformance.js';

const reportPath = fileURLToPath(new URL('../../../docs/loss-reports.md', import.meta.url));

it('docs/loss-reports.md and .json are current for the Zep adapter', async () => {
  const subjects = [zepSubject()];
  const reports = [];
  for (const s of subjects) reports.push(await runAdapterConformanceReport(s));
  const expected = Object.fromEntries(subjects.map((s) => [s.name, s.expectedLoss]));
  if (process.env.EWP_UPDATE_LOSS_REPORTS === '1') writeLossReport(reportPath, reports, expected);
  const check = lossReportIsCurrent(reportPath, reports, expected);
  // Refresh with `EWP_UPDATE_LOSS_REPORTS=1 pnpm vitest run src/loss-report.test.ts` or `ewp conformance --report docs/loss-reports.md`.
  expect(check.committed.json).toBe(check.fresh.json);
  expect(check.committed.markdown).toBe(check.fresh.markdown);
}, 300_000);
