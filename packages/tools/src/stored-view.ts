/** Reading snapshots and evaluating them, with failures mapped to tool refusals. */
import { type EvidenceView, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';
import { type EvidenceStore, missingViewMessage } from '@ewp/ledger';
import { ToolRefusal, toRefusal } from './refusal.js';

/**
 * The latest snapshot of a proposition, or exactly `viewId`.
 * @throws ToolRefusal `EWP_REFUSE_MISSING_VIEW`, or `EWP_REFUSE_LEDGER_UNAVAILABLE` when the store fails
 */
export async function loadStoredView(store: EvidenceStore, propositionId: string, viewId?: string): Promise<EvidenceView> {
  let view: EvidenceView | undefined;
  try {
    view = await store.get(propositionId, viewId);
  } catch (error) {
    throw toRefusal(error);
  }
  if (view === undefined) {
    throw new ToolRefusal('EWP_REFUSE_MISSING_VIEW', missingViewMessage(propositionId, viewId));
  }
  return view;
}

/** `warrantNow` under `reference-v2` (the raw, view-order WarrantView). */
export function evaluate(view: EvidenceView, evaluatedAt: string): WarrantView {
  try {
    return warrantNow(view, REFERENCE_V2, evaluatedAt);
  } catch (error) {
    throw toRefusal(error);
  }
}

/** The server clock as an ISO 8601 UTC instant (parsable by every EWP implementation). */
export function serverTime(now: () => Date): string {
  return now().toISOString();
}
