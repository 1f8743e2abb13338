import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ExpectedLossFile } from './loss.js';
import { type LossReportJson, lossReportJson, renderLossReportMarkdown } from './loss-report.js';
import type { AdapterConformanceReport } from './run-adapter-conformance.js';

/** `docs/loss-reports.md` → `docs/loss-reports.json`. */
export function jsonTwinPath(markdownPath: string): string {
  return markdownPath.replace(/\.md$/, '') + '.json';
}

/** Reads the committed JSON report (an empty one if there is none yet). */
export function readLossReport(markdownPath: string): LossReportJson {
  const path = jsonTwinPath(markdownPath);
  if (!existsSync(path)) return lossReportJson([], {});
  return JSON.parse(readFileSync(path, 'utf8')) as LossReportJson;
}

function texts(report: LossReportJson): { json: string; markdown: string } {
  return { json: `${JSON.stringify(report, null, 2)}\n`, markdown: renderLossReportMarkdown(report) };
}

/** The committed rows of adapters not in `fresh`, and `fresh`'s rows, sorted by adapter. */
function mergeRows(markdownPath: string, fresh: LossReportJson): { rows: LossReportJson['adapters']; kept: string[] } {
  const names = new Set(fresh.adapters.map((a) => a.adapter));
  const kept = readLossReport(markdownPath).adapters.filter((a) => !names.has(a.adapter));
  return { rows: [...kept, ...fresh.adapters].sort((a, b) => (a.adapter < b.adapter ? -1 : 1)), kept: kept.map((a) => a.adapter).sort() };
}

/**
 * Merges fresh reports into the committed report (entries of other adapters are kept, so each
 * adapter package can refresh its own rows, and the report says which rows were kept) and returns
 * the JSON and Markdown texts. `generatedBy` is the command that ran.
 */
export function mergedLossReport(
  markdownPath: string,
  reports: AdapterConformanceReport[],
  expected: Record<string, ExpectedLossFile>,
  generatedBy?: string,
): { json: string; markdown: string } {
  const fresh = lossReportJson(reports, expected, generatedBy);
  const { rows, kept } = mergeRows(markdownPath, fresh);
  return texts({ generated_by: fresh.generated_by, ...(kept.length > 0 ? { kept_from_earlier_runs: kept } : {}), adapters: rows });
}

/** Writes the Markdown report and its JSON twin; `generatedBy` is the command that ran (see {@link lossReportJson}). */
export function writeLossReport(
  markdownPath: string,
  reports: AdapterConformanceReport[],
  expected: Record<string, ExpectedLossFile>,
  generatedBy?: string,
): void {
  const { json, markdown } = mergedLossReport(markdownPath, reports, expected, generatedBy);
  mkdirSync(dirname(markdownPath), { recursive: true });
  writeFileSync(jsonTwinPath(markdownPath), json);
  writeFileSync(markdownPath, markdown);
}

/**
 * Are the committed rows of these adapters current? Only their rows are compared (the header and the
 * other adapters' rows are taken from the committed file); whether the whole file equals a live run of
 * every adapter is {@link lossReportIsCurrent} with every adapter and `whole: true`. Returns the
 * differing texts so a test can show them. Set `EWP_UPDATE_LOSS_REPORTS=1` (or run
 * `ewp conformance --report docs/loss-reports.md`) to refresh.
 */
export function lossReportIsCurrent(
  markdownPath: string,
  reports: AdapterConformanceReport[],
  expected: Record<string, ExpectedLossFile>,
  options: { whole?: boolean } = {},
): { current: boolean; committed: { json: string; markdown: string }; fresh: { json: string; markdown: string } } {
  const own = lossReportJson(reports, expected);
  const committedReport = readLossReport(markdownPath);
  const fresh = options.whole
    ? texts(own)
    : texts({ ...committedReport, generated_by: committedReport.generated_by || own.generated_by, adapters: mergeRows(markdownPath, own).rows });
  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');
  const committed = { json: read(jsonTwinPath(markdownPath)), markdown: read(markdownPath) };
  return { current: committed.json === fresh.json && committed.markdown === fresh.markdown, committed, fresh };
}
