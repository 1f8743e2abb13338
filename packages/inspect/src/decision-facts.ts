/**
 * The decisions panel's data: the gate decisions recorded in the ledger (docs/spec/receipts.md
 * §12.6), read with @ewp/tools' own readers, and the recovery gate a later use of each would meet
 * now, from the same `recoveryGateOf` the gates call. Nothing here decides; it only reads.
 */
import type { EvidenceView } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import {
  DECISION_ENTRY_KINDS,
  DecisionLedger,
  decisionSummary,
  isClean,
  type LedgerRecoveryPlan,
  listDecisions,
  readPage,
  recoveryCache,
  recoveryGateOf,
  reevaluationResult,
  type StoredDecision,
} from '@ewp/tools';
import type { DecisionPage, DecisionRow, PropositionRecovery } from './wire.js';

/** Default and largest page of a decision listing. */
export const DEFAULT_DECISION_PAGE = 100;
export const MAX_DECISION_PAGE = 1000;

/** Recorded decisions after chain index `after` (oldest first), each with the gate a later use of it meets now. */
export async function decisionPage(store: EvidenceStore, query: { proposition: string | null; after: number | null; limit: number }): Promise<DecisionPage> {
  const ledger = DecisionLedger.for(store);
  await ledger.sync();
  // Read once per request: the newest snapshot of every proposition the page's decisions rest on.
  const newest = new Map<string, EvidenceView | undefined>();
  const cache = recoveryCache();
  // Read a few records at a time, and stop at the page's byte bound: a ledger's records are as large as their writers made them.
  const page = await readPage({
    read: (after, count) =>
      listDecisions(store, {
        ...(query.proposition === null ? {} : { proposition: query.proposition }),
        ...(after === undefined ? {} : { afterIndex: after }),
        limit: count,
      }),
    cursorOf: (d) => d.chain_index,
    item: (d) => row(store, ledger, d, newest, cache),
    summary: (d) => ({ decision_id: d.decision_id, chain_index: d.chain_index, decision: d.decision, committed_at: d.committed_at }),
    after: query.after ?? undefined,
    limit: query.limit,
  });
  return {
    proposition: query.proposition,
    after: query.after,
    limit: query.limit,
    items: page.items as DecisionRow[],
    has_more: page.next_cursor !== null,
    next_cursor: page.next_cursor,
    recovery: query.proposition === null ? null : await propositionRecovery(store, ledger, query.proposition, newest),
  };
}

async function row(
  store: EvidenceStore,
  ledger: DecisionLedger,
  d: StoredDecision,
  newest: Map<string, EvidenceView | undefined>,
  cache: ReturnType<typeof recoveryCache>,
): Promise<DecisionRow> {
  const r = d.record;
  return {
    ...decisionSummary(d),
    committed_at: d.committed_at,
    gate: r.gate,
    action: r.action,
    risk_policy: { policy_id: r.risk_policy.policy_id, version: r.risk_policy.version },
    consulted: r.consulted.map((c) => ({
      proposition_id: c.proposition_id,
      view_id: c.view_id,
      receipt_digest: c.receipt_digest,
      may_act: c.may_act,
      rule: c.rule,
    })),
    recovery: r.recovery,
    // A held decision is no baseline for later uses (isClean): only a clean one is re-checked.
    later_use: isClean(r) ? await recoveryGateOf(store, ledger, d, newest, false, cache) : null,
    signed: d.signature !== null,
  };
}

/** Retractions, re-evaluation and recorded plans of one proposition, as the decision ledger holds them. */
async function propositionRecovery(
  store: EvidenceStore,
  ledger: DecisionLedger,
  propositionId: string,
  newest: Map<string, EvidenceView | undefined>,
): Promise<PropositionRecovery> {
  const refuted = ledger.refuted(propositionId);
  const last = ledger.lastRefutation(propositionId);
  // Re-verifying digests every record of the snapshot (seconds for 100,000 records): done only when
  // something of it is retracted, the case where a re-evaluation of the same snapshot can still block.
  let reevaluationNow: PropositionRecovery['reevaluation_now'] = null;
  if (refuted.size > 0) {
    if (!newest.has(propositionId)) newest.set(propositionId, await store.get(propositionId));
    const view = newest.get(propositionId);
    if (view !== undefined) reevaluationNow = reevaluationResult(view, refuted).action;
  }
  const plans = await store.readEntries({ kind: DECISION_ENTRY_KINDS.plan, subject: propositionId, limit: 1000 });
  const reevaluation = ledger.reevaluation(propositionId);
  return {
    proposition_id: propositionId,
    retracted: [...refuted],
    last_retraction_index: last < 0 ? null : last,
    reevaluation: reevaluation === undefined ? null : { chain_index: reevaluation.chain_index, view_id: reevaluation.view_id },
    reevaluation_now: reevaluationNow,
    plans: plans.map((e) => {
      const plan = e.body as unknown as LedgerRecoveryPlan;
      return {
        plan_id: e.id,
        chain_index: e.chain_index,
        committed_at: e.committed_at,
        reason: plan.changed?.[propositionId] ?? null,
        held: Array.isArray(plan.held) ? plan.held.length : 0,
      };
    }),
  };
}
