/**
 * The `ewp eval --jsonl` line contract, in one place for the main thread and the worker threads: one
 * input line in, one result line out.
 */
import { decodeView, EwpError, normalizeWarrantView, parseJson, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';
import { describeError } from '../view-file.js';

/** One JSONL result line (the public batch contract, docs/cli.md). */
export type EvalLineResult = { ok: true; warrant: WarrantView } | { ok: false; error: { code: string; message: string; path: string | null } };

function refusal(error: unknown, pathPrefix: string): EvalLineResult {
  if (error instanceof EwpError) {
    const path = error.path === undefined ? null : error.path.startsWith('$.evaluated_at') ? error.path : pathPrefix + error.path.slice(1);
    return { ok: false, error: { code: error.code, message: describeError(error).message, path } };
  }
  throw error;
}

/**
 * Evaluate one batch line: `{"view": ..., "evaluated_at": ...}`; without an `evaluated_at`
 * key, the view's own `evaluated_at` is used (a present `null` is used as null and refused).
 */
export function evaluateLine(line: string): EvalLineResult {
  let input: unknown;
  try {
    input = parseJson(line);
  } catch (error) {
    return refusal(error, '$');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: { code: 'NOT_AN_OBJECT', message: 'each line must be a JSON object {"view": ..., "evaluated_at": ...}', path: '$' } };
  }
  const record = input as Record<string, unknown>;
  if (!Object.hasOwn(record, 'view')) {
    const bare = Object.hasOwn(record, 'proposition_id');
    return {
      ok: false,
      error: {
        code: 'MISSING_FIELD',
        message: bare
          ? 'this line is a bare view; --jsonl lines are {"view": <view>, "evaluated_at": ...}: wrap it'
          : 'each line must be a JSON object {"view": ..., "evaluated_at": ...}',
        path: '$.view',
      },
    };
  }
  try {
    const view = decodeView(record.view);
    const rawView = record.view as Record<string, unknown>;
    const at = Object.hasOwn(record, 'evaluated_at') ? record.evaluated_at : rawView.evaluated_at;
    return { ok: true, warrant: normalizeWarrantView(warrantNow(view, REFERENCE_V2, at as string)) };
  } catch (error) {
    return refusal(error, '$.view');
  }
}

/** The results of a batch of lines: one result line per non-blank input line, in order, and how many were refused. */
export interface EvaluatedLines {
  out: string;
  failed: number;
}

/** Evaluate a batch of input lines (blank lines are skipped). */
export function evaluateLines(lines: readonly string[]): EvaluatedLines {
  let out = '';
  let failed = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const result = evaluateLine(line);
    if (!result.ok) failed++;
    out += `${JSON.stringify(result)}\n`;
  }
  return { out, failed };
}
