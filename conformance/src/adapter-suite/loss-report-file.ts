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

/**
 * Merges fresh reports into the committed report (entries of other adapters are kept, so each
 * adapter package can refresh its own rows) and returns the JSON and Markdown texts.
 */
export function mergedLossReport(
  markdownPath: string,
  reports: AdapterConformanceReport[],
  expected: Record<string, ExpectedLossFile>,
): { json: string; markdown: string } {
  const fresh = lossReportJson(reports, expected);
  const names = new Set(fresh.adapters.map((a) => a.adapter));
  const kept = readLossReport(markdownPath).adapters.filter((a) => !names.has(a.adapter));
  const merged: LossReportJson = {
    generated_by: fresh.generated_by,
    adapters: [...kept, ...fresh.adapters].sort((a, b) => (a.adapter < b.adapter ? -1 : 1)),
  };
  return { json: `${JSON.stringify(merged, null, 2)}\n`, markdown: renderLossReportMarkdown(merged) };
}

/** Writes the Markdown report and its JSON twin. */
export function writeLossReport(markdownPath: string, reports: AdapterConformanceReport[], expected: Record<string, ExpectedLossFile>): void {
  const { json, markdown } = mergedLossReport(markdownPath, reports, expected);
  mkdirSync(dirname(markdownPath), { recursive: true });
  writeFileSync(jsonTwinPath(markdownPath), json);
  writeFileSync(markdownPath, markdown);
}

/**
 * Is the committed report current for these adapters? Returns the differing texts so a test can
 * show them. Set `EWP_UPDATE_LOSS_REPORTS=1` (or run `ewp conformance --report …`) to refresh.
 */
export function lossReportIsCurrent(
  markdownPath: string,
  reports: AdapterConformanceReport[],
  expected: Record<string, ExpectedLossFile>,
): { current: boolean; committed: { json: string; markdown: string }; fresh: { json: string; markdown: string } } {
  const fresh = mergedLossReport(markdownPath, reports, expected);
  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');
  const committed = { json: read(jsonTwinPath(markdownPath)), markdown: read(markdownPath) };
  return { current: committed.json === fresh.json && committed.markdown === fresh.markdown, committed, fresh };
}
