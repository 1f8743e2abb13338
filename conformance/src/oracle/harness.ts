/**
 * The reference's JSON-lines harness (docs/spec/protocol.md §12) as a pure function: one line in, one outcome out.
 */
import { decodeView, decodeViewAcceptingRepr, isRefusal } from './decode-view.js';
import { evaluateDecoded, type OracleWarrantView, RecordTimeOutOfRange } from './evaluate-view.js';
import { readInstant } from './instant.js';
import { readJsonText } from './json-text.js';
import { isJObject, type JValue } from './json-value.js';
import { derivedViewId } from './view-id.js';

/** The harness's error classes (docs/spec/protocol.md §12). */
export type OracleErrorClass = 'InvalidEvidenceView' | 'ValueError' | 'OverflowError' | 'HarnessError';

/** What the reference harness prints for one line, minus the free-text message. */
export type OracleOutcome =
  | { readonly ok: true; readonly warrant: OracleWarrantView }
  | {
      readonly ok: false;
      readonly errorClass: OracleErrorClass;
      /** Human-readable reason (not normative). */
      readonly detail: string;
      /**
       * True when the view was refused only because a text field holds a non-empty array or
       * object (the reference would evaluate it with a Python repr; vectors flag it `python_repr`).
       */
      readonly pythonRepr?: boolean;
    };

/** Options for diagnostics; the defaults are the project's contract. */
export interface OracleOptions {
  /** Evaluate Python-repr text (approximate repr) instead of refusing. Default false. */
  readonly acceptPythonRepr?: boolean;
}

/**
 * Evaluates an already-read view value at T (any JSON value; a non-string T is refused as
 * `ValueError`), following the reference's order: validate, then T, then record times.
 */
export function evaluateViewValue(view: JValue, evaluatedAt: JValue | undefined, options: OracleOptions = {}): OracleOutcome {
  const decoded = options.acceptPythonRepr ? decodeViewAcceptingRepr(view) : decodeView(view);
  if (isRefusal(decoded)) {
    return {
      ok: false,
      errorClass: 'InvalidEvidenceView',
      detail: `${decoded.rule} ${decoded.path}: ${decoded.reason}`,
      ...(decoded.pythonReprOnly ? { pythonRepr: true } : {}),
    };
  }
  if (typeof evaluatedAt !== 'string') return { ok: false, errorClass: 'ValueError', detail: 'evaluated_at is not a string' };
  const T = readInstant(evaluatedAt);
  if (T === 'unparsable') return { ok: false, errorClass: 'ValueError', detail: 'unparsable evaluated_at' };
  if (T === 'out_of_range') return { ok: false, errorClass: 'OverflowError', detail: 'evaluated_at out of range' };
  try {
    const viewId = decoded.view_id ?? derivedViewId(decoded);
    return { ok: true, warrant: evaluateDecoded(decoded, viewId, evaluatedAt, T.us) };
  } catch (err) {
    if (err instanceof RecordTimeOutOfRange) return { ok: false, errorClass: 'OverflowError', detail: err.message };
    throw err;
  }
}

/** Evaluates a view given as JSON text (read like Python's `json.loads`) at T. */
export function evaluateView(viewText: string, evaluatedAt: unknown, options: OracleOptions = {}): OracleOutcome {
  let view: JValue;
  try {
    view = readJsonText(viewText);
  } catch (err) {
    return { ok: false, errorClass: 'InvalidEvidenceView', detail: `not JSON: ${(err as Error).message}` };
  }
  return evaluateViewValue(view, typeof evaluatedAt === 'string' || evaluatedAt === null ? evaluatedAt : undefined, options);
}

/**
 * One line of the reference harness: `{"view": ..., "evaluated_at": ...}`. Without an
 * `evaluated_at` key on the line, the view's own `evaluated_at` key is used. A blank line has no
 * output in the reference; here it is reported as `HarnessError` — skip blank lines before calling.
 */
export function evaluateHarnessLine(line: string, options: OracleOptions = {}): OracleOutcome {
  let obj: JValue;
  try {
    obj = readJsonText(line);
  } catch (err) {
    return { ok: false, errorClass: 'HarnessError', detail: `not JSON: ${(err as Error).message}` };
  }
  if (!isJObject(obj)) return { ok: false, errorClass: 'HarnessError', detail: 'the line is not a JSON object' };
  const view = obj.entries.has('view') ? (obj.entries.get('view') as JValue) : null;
  let T: JValue | undefined;
  if (obj.entries.has('evaluated_at')) T = obj.entries.get('evaluated_at');
  else if (isJObject(view)) T = view.entries.get('evaluated_at') ?? null;
  else T = null;
  return evaluateViewValue(view, T, options);
}
