/**
 * Runs @ewp/core the way the reference harness runs the reference (docs/spec/protocol.md §12), so its outcome can
 * be compared with the oracle's: decode the JSON text, evaluate with reference-v2 at T,
 * normalize. Refusals are mapped to the harness's classes; anything that is not an EwpError is a
 * crash and is reported as such (never mapped to a class).
 */
import {
  EwpError,
  InvalidEvaluatedAt,
  InvalidEvidenceView,
  decodeViewJson,
  normalizeWarrantView,
  REFERENCE_V2,
  TimestampOutOfRange,
  UnknownPolicy,
  warrantNow,
} from '@ewp/core';
import type { OracleOutcome } from '../src/oracle/index.js';

export type CoreOutcome =
  | { readonly ok: true; readonly warrant: Record<string, unknown> }
  | { readonly ok: false; readonly errorClass: string; readonly code: string; readonly detail: string }
  | { readonly ok: false; readonly errorClass: 'CRASH'; readonly code: string; readonly detail: string };

function plain(x: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(x)) as Record<string, unknown>;
}

/**
 * The core's outcome for a view JSON text at T. T is normally a string; the mutation fuzz also
 * passes whatever the view's own `evaluated_at` key decoded to (a number, null, a list…), which
 * the core must refuse with a typed error.
 */
export function coreOutcome(viewText: string, evaluatedAt: unknown): CoreOutcome {
  try {
    const view = decodeViewJson(viewText);
    return { ok: true, warrant: plain(normalizeWarrantView(warrantNow(view, REFERENCE_V2, evaluatedAt as string))) };
  } catch (err) {
    if (err instanceof InvalidEvidenceView) return { ok: false, errorClass: 'InvalidEvidenceView', code: err.code, detail: err.message };
    if (err instanceof UnknownPolicy || err instanceof InvalidEvaluatedAt) return { ok: false, errorClass: 'ValueError', code: err.code, detail: err.message };
    if (err instanceof TimestampOutOfRange) return { ok: false, errorClass: 'OverflowError', code: err.code, detail: err.message };
    if (err instanceof EwpError) return { ok: false, errorClass: `EwpError(${err.name})`, code: err.code, detail: err.message };
    const e = err as Error;
    return { ok: false, errorClass: 'CRASH', code: e?.name ?? typeof err, detail: `${e?.message}\n${e?.stack ?? ''}` };
  }
}

/** JSON text with object keys sorted, for order-insensitive deep comparison. */
export function sortedJson(x: unknown): string {
  return JSON.stringify(x, (_k, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** null when both agree (same class, or same normalized WarrantView); else a description. */
export function disagreement(oracle: OracleOutcome, core: CoreOutcome): string | null {
  if (!core.ok && core.errorClass === 'CRASH') return `core crashed (${core.code}): ${core.detail}`;
  if (oracle.ok && core.ok) {
    const a = sortedJson(oracle.warrant);
    const b = sortedJson(core.warrant);
    return a === b ? null : `WarrantViews differ\n  oracle: ${a}\n  core:   ${b}`;
  }
  if (!oracle.ok && !core.ok) {
    return oracle.errorClass === core.errorClass
      ? null
      : `refusal classes differ: oracle ${oracle.errorClass} (${oracle.detail}), core ${core.errorClass} ${core.code} (${core.detail})`;
  }
  if (oracle.ok)
    return `oracle evaluated, core refused ${core.ok ? '' : `${core.errorClass} ${core.code}: ${core.detail}`}\n  oracle: ${sortedJson(oracle.warrant)}`;
  return `oracle refused ${oracle.errorClass} (${oracle.detail}), core evaluated\n  core: ${sortedJson((core as { warrant: unknown }).warrant)}`;
}
