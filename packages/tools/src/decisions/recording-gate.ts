/**
 * The recording gate (docs/spec/receipts.md §12.6): decide an action on the latest stored evidence, bound by the
 * recovery gate of the action's earlier decision, and append the decision record to the ledger's
 * hash chain before anyone acts on it. A gate that cannot record does not decide (fail closed).
 */
import { randomUUID } from 'node:crypto';
import { type Action, type EvidenceView, EwpError, type RiskPolicy, REFERENCE_V2, type WarrantView, namesProposition, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import {
  type ConsultedWarrant,
  type DecisionBasis,
  type DecisionRecord,
  type ReceiptSigner,
  type RecoveryGateRecord,
  buildDecisionRecord,
  consultedWarrant,
  decisionAction,
  decisionId,
  decisionRiskPolicy,
  signDecisionRecord,
  warrantReceiptFor,
} from '@ewp/receipts';
import { storedWarrant } from '../stored-warrant.js';
import { DecisionError } from './decision-error.js';
import { decisionFactsFor } from './decision-ledger.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { recoveryGateOf, retractionGate } from './recovery-check.js';

/** How a gate records its decisions. */
export interface DecisionRecording {
  /** Which gate decides (`ai-sdk`, `langchain`, `mcp`, `cli`, `library`). Default `library`. */
  gate?: string;
  /** Signs each record (the §5 envelope under the decision label). */
  signer?: ReceiptSigner;
  /**
   * A ledger opened read-only cannot record: `refuse` (default) fails closed; `unrecorded` returns
   * the decision (still bounded by the recovery gate, which only reads) with a null id. For a
   * decision-only answer such as `ewp_may_act` on a read-only server, never for a guarded run.
   */
  readOnlyLedger?: 'refuse' | 'unrecorded';
  /**
   * Decide as a recorded decision would be decided (the recovery gate reads the ledger) but append
   * nothing, and answer a null id: for a caller that may ask but holds no writer's role (an anonymous
   * `ewp_may_act`), whose calls must not grow the ledger. Default `false`.
   */
  dryRun?: boolean;
}

/** One decision to make. */
export interface DecisionRequest {
  store: EvidenceStore;
  /** The propositions the action relies on (usually one). */
  propositions: readonly string[];
  action: Action;
  riskPolicy?: RiskPolicy | undefined;
  /** T, an ISO 8601 instant. */
  evaluatedAt: string;
  /** Identifies the call (e.g. a tool call id); default a random UUID. */
  callId?: string | undefined;
  /** `false`: decide without the ledger (no record, no recovery gate). Default: record. */
  record?: DecisionRecording | false | undefined;
  /** Newest snapshots the caller already read, by proposition id. */
  views?: ReadonlyMap<string, EvidenceView | undefined>;
}

/** A decision, recorded or not. */
export interface RecordedDecision {
  /** The ledger entry id of the record; null when recording was off. */
  decision_id: string | null;
  record: DecisionRecord;
  /** The warrants consulted (raw `warrantNow` results, possibly shared with the store's warrant table: read-only), by proposition id. */
  warrants: ReadonlyMap<string, WarrantView>;
}

/**
 * Decides (and, unless `record: false`, records) one gated action. The decision is the minimum of
 * `mayAct` over the consulted warrants and the recovery gate of the action's last unheld decision.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record it (or
 * cannot be read for the recovery gate): nothing may act on a decision that is not in the ledger.
 */
export async function decide(request: DecisionRequest): Promise<RecordedDecision> {
  const { store } = request;
  const action = decisionAction(request.action);
  const riskPolicy = decisionRiskPolicy(request.riskPolicy);
  const views = new Map<string, EvidenceView>();
  const unsupported: string[] = [];
  for (const pid of request.propositions) {
    const view = request.views?.has(pid) ? request.views.get(pid) : await store.get(pid);
    if (view === undefined) unsupported.push(pid);
    else views.set(pid, view);
  }
  const recording = request.record === false ? undefined : (request.record ?? {});
  // A decision that appends its record moves the ledger revision the warrant table keys on, so a piece it
  // kept would be dead on arrival and a stream of recorded decisions would only ever miss (a miss reads
  // the view again and computes the piece's edges): it evaluates directly (docs/performance.md).
  const appends = recording !== undefined && recording.dryRun !== true;
  const warrants = new Map<string, WarrantView>();
  const consulted: ConsultedWarrant[] = [];
  for (const [pid, view] of views) {
    // Otherwise the store's warrant table answers while T stays in the snapshot's kept piece (the view
    // is still read: its digest, lineage and the recovery gate are the record's).
    const warrant = appends ? warrantNow(view, REFERENCE_V2, request.evaluatedAt) : await storedWarrant(store, view, request.evaluatedAt);
    warrants.set(pid, warrant);
    consulted.push(consultedWarrant(warrantReceiptFor(view, warrant), warrant, action, riskPolicy));
  }
  const basis = await basisOf(store, views);
  let recovery: RecoveryGateRecord | null = null;
  if (recording !== undefined) {
    try {
      // Only what this action and these propositions need, read by index: a process that decides once
      // (a hook per tool call) pays for its own decision, not for the ledger's decision history.
      const ledger = await decisionFactsFor(store, action.action_id, views.keys());
      const baseline = ledger.baseline(action.action_id);
      recovery = baseline === undefined ? retractionGate(ledger, views) : await recoveryGateOf(store, ledger, baseline, views, true);
    } catch (error) {
      throw notRecorded('the ledger could not be read for the recovery gate', error);
    }
  }
  const record = buildDecisionRecord({
    gate: recording?.gate ?? 'library',
    call_id: request.callId ?? randomUUID(),
    action,
    risk_policy: riskPolicy,
    evaluated_at: request.evaluatedAt,
    unsupported,
    consulted,
    basis,
    recovery,
  });
  if (recording === undefined || recording.dryRun === true) return { decision_id: null, record, warrants };
  const id = decisionId(record);
  try {
    const signature = recording.signer === undefined ? null : signDecisionRecord(record, recording.signer);
    await store.appendEntries([{ kind: DECISION_ENTRY_KINDS.decision, id, subjects: [...new Set([...request.propositions])], body: { record, signature } }]);
  } catch (error) {
    if (recording.readOnlyLedger === 'unrecorded' && isReadOnlyRefusal(error)) return { decision_id: null, record, warrants };
    throw notRecorded('the ledger could not record the decision', error);
  }
  return { decision_id: id, record, warrants };
}

function isReadOnlyRefusal(error: unknown): boolean {
  return EwpError.isInstance(error) && error.code === 'EWP_REFUSE_LEDGER_UNAVAILABLE' && (error as { reason?: unknown }).reason === 'read_only';
}

function notRecorded(what: string, cause: unknown): DecisionError {
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return new DecisionError('EWP_REFUSE_DECISION_NOT_RECORDED', `${what}${detail}; nothing may act on an unrecorded decision`, { cause });
}

/**
 * The snapshots a decision rests on: each consulted proposition, and every proposition it was
 * `derived_from` (transitively, `P:<suffix>` variants resolved to P), at their newest snapshots.
 */
async function basisOf(store: EvidenceStore, views: ReadonlyMap<string, EvidenceView>): Promise<DecisionBasis[]> {
  const seen = new Map<string, string>();
  const queue: EvidenceView[] = [];
  for (const [pid, view] of views) {
    seen.set(pid, view.view_id);
    queue.push(view);
  }
  for (let view = queue.shift(); view !== undefined; view = queue.shift()) {
    for (const edge of view.lineage) {
      if (edge.kind !== 'derived_from' || !namesProposition(edge.from_id, view.proposition_id)) continue;
      const target = await resolveProposition(store, edge.to_id, seen);
      if (target === undefined || seen.has(target.proposition_id)) continue;
      seen.set(target.proposition_id, target.view_id);
      queue.push(target);
    }
  }
  return [...seen].map(([proposition_id, view_id]) => ({ proposition_id, view_id }));
}

/** The stored proposition `id` names: itself, or the longest stored prefix of a `P:<suffix>` variant. */
async function resolveProposition(store: EvidenceStore, id: string, seen: ReadonlyMap<string, string>): Promise<EvidenceView | undefined> {
  if (seen.has(id)) return undefined;
  const direct = await store.get(id);
  if (direct !== undefined) return direct;
  for (let i = id.lastIndexOf(':'); i > 0; i = id.lastIndexOf(':', i - 1)) {
    const prefix = id.slice(0, i);
    if (!namesProposition(id, prefix)) continue;
    if (seen.has(prefix)) return undefined;
    const view = await store.get(prefix);
    if (view !== undefined) return view;
  }
  return undefined;
}
