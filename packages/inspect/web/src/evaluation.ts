/** How the page evaluates a view in the browser, and when an evaluation is too large to run unasked. */
import { type EvidenceView, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';

/** `warrantNow` under the reference policy at T, or the error that refused the view. */
export function evaluateAt(view: EvidenceView, at: string): WarrantView | Error {
  try {
    return warrantNow(view, REFERENCE_V2, at);
  } catch (error) {
    return error as Error;
  }
}

/** Above this many records, work that evaluates the view many times waits for a click. */
const AUTO_SEARCH_MAX_RECORDS = 5000;

/** Whether repeated evaluation of `view` (the gate's search, the axes over time) should wait to be asked. */
export function isLargeView(view: EvidenceView): boolean {
  return view.assertions.length + view.evidence.length + view.checks.length > AUTO_SEARCH_MAX_RECORDS;
}
