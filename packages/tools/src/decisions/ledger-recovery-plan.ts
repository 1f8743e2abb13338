/**
 * Recovery planning over a whole ledger (docs/spec/receipts.md §12.5): which recorded decisions rested on evidence
 * that has changed, been lost or been retracted since, what each needs re-evaluated before a later
 * use of it may proceed (path-specific), and which propositions derive from the changed ones.
 */
import { domainDigest } from '@ewp/canonical';
import type { EvidenceView } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type InvalidationReason, planReevaluationFromStore } from '@ewp/receipts';
import { DecisionError } from './decision-error.js';
import { DecisionLedger, entriesAfter, type StoredDecision, isClean, storedDecision } from './decision-ledger.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { recoveryCache, recoveryGateOf } from './recovery-check.js';

/** A recorded action held by the recovery gate. */
export interface HeldAction {
  decision_id: string;
  action_id: string;
  /** The recorded decision, and the bound the recovery gate puts on a later use of it. */
  decided: string;
  gate: string;
  /** Proposition → why it is invalidated (its own reason, or `depends_on_invalidated:…`). */
  invalidated: Record<string, string>;
  /** Propositions to re-evaluate before this action may proceed (its own dependency path only). */
  requirements: string[];
}

/** A recorded action whose changed path has been re-evaluated: a later use decides it again. */
export interface ReevaluatedAction {
  decision_id: string;
  action_id: string;
  /** The recorded decision. */
  decided: string;
  /** Proposition → why it was invalidated against this decision (since re-evaluated). */
  invalidated: Record<string, string>;
}

/** What {@link planLedgerRecovery} found. */
export interface LedgerRecoveryPlan {
  /** The chain index or time the plan starts from (decisions recorded after it), or null for all. */
  since: number | string | null;
  /** Decisions examined (recorded, not themselves held). */
  decisions: number;
  /** Propositions whose evidence changed against a decision that rested on them, with the reason. */
  changed: Record<string, string>;
  /** Propositions to re-evaluate: the changed ones and every proposition derived from them, dependency order. */
  reevaluate: string[];
  /** Recorded actions a later use of which is held until propositions are re-evaluated, oldest first (each with its requirements). */
  held: HeldAction[];
  /**
   * Recorded actions whose evidence changed and whose whole path has been re-evaluated since: nothing
   * is left to re-evaluate, and a later use decides the action again on the newest evidence (the old
   * decision itself is never re-executed). Oldest first.
   */
  reevaluated: ReevaluatedAction[];
  /** Recorded actions whose evidence is unchanged. */
  clear: number;
  /** Lineage edges that are not graph edges (other kinds, other records, unknown targets). */
  ignored_lineage: number;
  /** The `recovery.plan` entry id, when the plan was recorded. */
  plan_id: string | null;
}

/** Options of {@link planLedgerRecovery}. */
export interface LedgerRecoveryOptions {
  /** Only decisions after this chain index (a number) or committed at or after this ISO 8601 time. */
  since?: number | string;
  /** Append the plan as a `recovery.plan` entry. Default false. */
  record?: boolean;
}

async function readDecisions(store: EvidenceStore, since: number | string | undefined): Promise<StoredDecision[]> {
  const out: StoredDecision[] = [];
  const after = typeof since === 'number' ? since : undefined;
  const sinceTime = typeof since === 'string' ? Date.parse(since) : undefined;
  if (sinceTime !== undefined && Number.isNaN(sinceTime)) {
    throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', `since must be a chain index or an ISO 8601 time, got ${JSON.stringify(since)}`, {
      path: '$.since',
    });
  }
  for await (const entry of entriesAfter(store, { kind: DECISION_ENTRY_KINDS.decision }, after)) {
    const d = storedDecision(entry);
    if (d === undefined || !isClean(d.record)) continue;
    if (sinceTime !== undefined && Date.parse(d.committed_at) < sinceTime) continue;
    out.push(d);
  }
  return out;
}

const SEVERITY: readonly string[] = ['evidence_refuted', 'evidence_missing', 'integrity_failed', 'evidence_stale', 'evidence_changed'];

/**
 * Plans recovery over the ledger: re-checks every recorded (unheld) decision since `since` against
 * the newest snapshots and the recorded retractions, and follows the ledger's lineage from the
 * changed propositions. Linear in decisions, their bases and the ledger's propositions.
 * @throws {GraphError} for cyclic lineage (invalid lineage, never dropped silently).
 */
export async function planLedgerRecovery(store: EvidenceStore, options: LedgerRecoveryOptions = {}): Promise<LedgerRecoveryPlan> {
  const decisions = await readDecisions(store, options.since);
  const ledger = DecisionLedger.for(store);
  await ledger.sync();
  const newest = new Map<string, EvidenceView | undefined>();
  const changed = new Map<string, string>();
  const held: HeldAction[] = [];
  const reevaluated: ReevaluatedAction[] = [];
  const cache = recoveryCache();
  for (const d of decisions) {
    const gate = await recoveryGateOf(store, ledger, d, newest, false, cache);
    if (gate.decision === 'MAY_ACT') continue;
    // Every proposition on its path re-evaluated: what the gate still bounds is the old decision
    // itself, which a later use replaces by deciding again. Nothing is held waiting on the operator.
    if (gate.requirements.length === 0) {
      reevaluated.push({ decision_id: d.decision_id, action_id: d.record.action.action_id, decided: d.record.decision, invalidated: gate.invalidated });
      continue;
    }
    for (const [pid, why] of Object.entries(gate.invalidated)) {
      if (why.startsWith('depends_on_invalidated:')) continue;
      const known = changed.get(pid);
      if (known === undefined || SEVERITY.indexOf(why) < SEVERITY.indexOf(known)) changed.set(pid, why);
    }
    held.push({
      decision_id: d.decision_id,
      action_id: d.record.action.action_id,
      decided: d.record.decision,
      gate: gate.decision,
      invalidated: gate.invalidated,
      requirements: gate.requirements,
    });
  }
  let reevaluate: string[] = [];
  let ignored = 0;
  // A proposition with no snapshot left is not in the lineage graph; it has nothing derived to follow.
  const stored = [...changed].filter(([pid]) => newest.get(pid) !== undefined);
  if (stored.length > 0) {
    const lineagePlan = await planReevaluationFromStore(store, new Map(stored.map(([pid, why]) => [pid, why as InvalidationReason])));
    reevaluate = lineagePlan.propositions;
    ignored = lineagePlan.ignored.length;
  }
  const plan: LedgerRecoveryPlan = {
    since: options.since ?? null,
    decisions: decisions.length,
    changed: Object.fromEntries(changed),
    reevaluate,
    held,
    reevaluated,
    clear: decisions.length - held.length - reevaluated.length,
    ignored_lineage: ignored,
    plan_id: null,
  };
  if (options.record === true) {
    const body = { ...plan, planned_at: new Date().toISOString() } as Record<string, unknown>;
    const id = `plan_${domainDigest('ewp-recovery-plan', body).slice(0, 32)}`;
    try {
      await store.appendEntries([{ kind: DECISION_ENTRY_KINDS.plan, id, subjects: [...changed.keys()], body }]);
    } catch (error) {
      throw new DecisionError('EWP_REFUSE_DECISION_NOT_RECORDED', 'the ledger could not record the recovery plan', { cause: error });
    }
    plan.plan_id = id;
  }
  return plan;
}
