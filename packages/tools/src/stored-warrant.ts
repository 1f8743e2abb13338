/**
 * The warrant of a snapshot a read path already holds, through its store's one warrant table
 * (`warrantTableFor`): the gate when it appends nothing (and so `ewp_may_act` for an anonymous caller)
 * and `ewp_memory_context` need the view itself (its digest, lineage, checks), so they read it as before
 * and take only its warrant from the table.
 *
 * A `(proposition_id, view_id)` names one snapshot for good (the store refuses another under it), and
 * `warrantNow` is a function of the snapshot, the policy and T; so a table answer with the held view's id
 * is `warrantNow(view, reference-v2, T)`. Any other answer (a commit landed between the caller's read and
 * the lookup, so the table read a newer snapshot) or a failing lookup is set aside for the direct
 * evaluation, which also raises what it raised before.
 */
import { type EvidenceView, type Policy, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { toRefusal } from './refusal.js';
import { warrantTableFor } from './warrant-table.js';

/**
 * `warrantNow(view, reference-v2, evaluatedAt)` for `view` as just read from `store`, answered by the
 * store's warrant table when it holds that snapshot. The result's lists may be shared with the table:
 * treat it as read-only.
 * @param exact the caller asked for the view by its id (else it read the proposition's latest snapshot)
 * @throws as `warrantNow` does (an unparsable T)
 */
export async function storedWarrant(store: EvidenceStore, view: EvidenceView, evaluatedAt: string, exact = false): Promise<WarrantView> {
  // A store that cannot say its revision keeps no table entry: every lookup would read the view again.
  if (typeof store.revision !== 'function') return warrantNow(view, REFERENCE_V2, evaluatedAt);
  let w: WarrantView | undefined;
  try {
    w = await warrantTableFor(store).warrantAt(view.proposition_id, exact ? view.view_id : undefined, evaluatedAt);
  } catch {
    w = undefined;
  }
  return w !== undefined && w.view_id === view.view_id && w.proposition_id === view.proposition_id ? w : warrantNow(view, REFERENCE_V2, evaluatedAt);
}

/**
 * {@link storedWarrant} for a tool: as `evaluate` of ./stored-view.js, failures are tool refusals.
 * @throws ToolRefusal as `evaluate` refuses
 */
export async function evaluateStored(store: EvidenceStore, view: EvidenceView, evaluatedAt: string, exact = false): Promise<WarrantView> {
  try {
    return await storedWarrant(store, view, evaluatedAt, exact);
  } catch (error) {
    throw toRefusal(error);
  }
}

/**
 * The warrant of the proposition's latest stored snapshot at T, `undefined` when nothing is stored: as
 * `store.get(propositionId)` and `warrantNow(view, policy, evaluatedAt)` give it, answered by the store's
 * warrant table (no store read while T stays in a kept piece and nothing was committed) under
 * `reference-v2`; under another policy, or when the table cannot answer, read and evaluated as before
 * (raising what that raises). For a reader that needs the warrant and not the view. The result's lists may
 * be shared with the table: treat it as read-only.
 */
export async function latestWarrant(
  store: EvidenceStore,
  propositionId: string,
  evaluatedAt: string,
  policy: Policy = REFERENCE_V2,
): Promise<WarrantView | undefined> {
  if (policy === REFERENCE_V2 && typeof store.revision === 'function') {
    try {
      return await warrantTableFor(store).warrantAt(propositionId, undefined, evaluatedAt);
    } catch {
      // Nothing stored, a bad T or a failing store: the direct read below answers or raises as before.
    }
  }
  const view = await store.get(propositionId);
  return view === undefined ? undefined : warrantNow(view, policy, evaluatedAt);
}
