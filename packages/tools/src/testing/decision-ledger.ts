/** Filling a ledger with many recorded decisions at once, for the tests that need a large decision ledger. */
import type { Action } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { decisionId } from '@ewp/receipts';
import { DECISION_ENTRY_KINDS } from '../decisions/entry-kinds.js';
import { decide } from '../decisions/recording-gate.js';

/** What {@link appendDecisions} records. */
export interface DecisionFill {
  /** How many decisions. */
  count: number;
  /** The proposition every decision consults (stored beforehand, or it is recorded as unsupported). */
  proposition: string;
  /** T of every decision. */
  evaluatedAt: string;
  /** Characters of every `action_id` (default: a short id); a ledger grown by a hostile writer has long ones. */
  actionIdChars?: number;
  /** Decisions appended per ledger write (default 1000). */
  batch?: number;
}

/**
 * Append `count` decisions on one proposition, each decided by the library's own gate (not recorded
 * one by one: the records are appended in batches, which is what makes 10,000 take seconds).
 * @returns the appended decisions' ids, oldest first
 */
export async function appendDecisions(store: EvidenceStore, fill: DecisionFill): Promise<string[]> {
  const view = await store.get(fill.proposition);
  const views = new Map(view === undefined ? [] : [[fill.proposition, view] as const]);
  const ids: string[] = [];
  const batch = fill.batch ?? 1000;
  for (let at = 0; at < fill.count; at += batch) {
    const entries = [];
    for (let i = at; i < Math.min(fill.count, at + batch); i++) {
      const name = `fill-${i}-`;
      const action: Action = {
        action_id: fill.actionIdChars === undefined ? name : name.padEnd(fill.actionIdChars, 'x'),
        kind: 'shell',
        risk: 'low',
        reversible: true,
      };
      const { record } = await decide({ store, propositions: [fill.proposition], action, evaluatedAt: fill.evaluatedAt, views, callId: name, record: false });
      const id = decisionId(record);
      ids.push(id);
      entries.push({ kind: DECISION_ENTRY_KINDS.decision, id, subjects: [fill.proposition], body: { record, signature: null } });
    }
    await store.appendEntries(entries);
  }
  return ids;
}
