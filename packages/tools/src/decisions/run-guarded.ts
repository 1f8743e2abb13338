/**
 * Guarded runs (docs/spec/receipts.md §12.6; EvidenceBound's `run_guarded`): decide and record, execute only on
 * MAY_ACT or on a confirmation that is itself recorded, claim the execution in the ledger first (a
 * decision authorizes one execution, durably: the claim is a ledger entry, so a restart cannot run
 * it twice), and record the outcome. Whatever cannot be recorded does not run. A framework call with
 * an id is executed once whatever number of decisions are made on it: a resumed or replayed approval
 * decides again, and its claim on the call is refused.
 */
import { domainDigest } from '@ewp/canonical';
import { type Decision, EwpError } from '@ewp/core';
import type { AppendEntryResult, EvidenceStore, LedgerEntryInput } from '@ewp/ledger';
import { minDecision, operationDigest } from '@ewp/receipts';
import { type GateCall, type GateDecision, type GateRefusal, decideGate, denyReason, gateRefusal } from '../gate-decision.js';
import type { GateOptions } from '../gate-options.js';
import { DecisionError } from './decision-error.js';
import { DecisionLedger, type StoredDecision } from './decision-ledger.js';
import { readDecision } from './decision-store.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { recoveryGateOf } from './recovery-check.js';

/** A confirmation of a REQUIRE_CONFIRMATION decision, recorded before the action runs. */
export interface Confirmation {
  /** Who confirmed (a user id, a reviewer's name). */
  confirmedBy: string;
}

/** Options of {@link runGuarded}: the gate's, plus how to ask for a confirmation. */
export interface GuardedRunOptions<INPUT> extends GateOptions<INPUT> {
  /** Asked on REQUIRE_CONFIRMATION; without it, such a decision does not run. */
  confirm?: (decision: GateDecision, input: INPUT) => Promise<Confirmation | false> | Confirmation | false;
}

/**
 * The ledger id of the claim on one call of one gate (`decision.call` entries): a digest, so any gate
 * name and call id fit the entry id and no two pairs share one.
 */
export function callClaimId(gate: string, callId: string): string {
  return `call_${domainDigest('ewp-decision-call', { gate, call_id: callId }).slice(0, 32)}`;
}

/** The call a guarded run claims besides its decision: the gate that records it and the framework's call id. */
interface CallClaim {
  gate: string;
  callId: string;
}

/** What a guarded run did. */
export type GuardedRun<R> =
  | { status: 'executed'; decisionId: string | null; decision: GateDecision | null; result: R }
  | { status: 'refused'; decisionId: string | null; decision: GateDecision | null; reason: string; refusal: GateRefusal | null };

/**
 * Decide (recording the decision), then execute `execute(input)` only when the effective decision
 * is MAY_ACT or a recorded confirmation lifts REQUIRE_CONFIRMATION; record the outcome.
 * With `record: false` (an operator's unrecorded gate) it decides and runs without any entry.
 *
 * Once only: the decision's execution is claimed in the ledger first, and when `options.callId`
 * names the call, the call of this gate is claimed in the same write, so a call runs once across
 * every decision made on it (a framework that resumes or replays an approved call decides again);
 * two such runs at once, in one process or several, execute it once. Without a call id, once per decision.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record the
 * decision, the claim or the outcome (nothing runs unless the claim is recorded);
 * `EWP_REFUSE_DECISION_NOT_EXECUTABLE` when the decision, or the call under another decision, was
 * already executed (nothing runs; for the call, the refusal is the decision's recorded outcome).
 * @throws whatever `execute` throws, after its failure is recorded.
 */
export async function runGuarded<INPUT, R>(
  options: GuardedRunOptions<INPUT>,
  input: INPUT,
  call: GateCall,
  execute: (input: INPUT) => Promise<R> | R,
): Promise<GuardedRun<R>> {
  // The call id is read once: the decision records it and the execution claims it.
  const callId = options.callId === undefined ? call.callId : options.callId(input);
  const d = await decideGate({ ...options, callId: () => callId }, input, call);
  // record: false is the operator's choice of an unrecorded gate: it decides, and nothing is claimed or recorded.
  const recorded = options.record !== false;
  const id = d.decisionId as string;
  const refuse = (gate: GateRefusal['ewpGate'], reason: string): GuardedRun<R> => ({
    status: 'refused',
    decisionId: id,
    decision: d,
    reason,
    refusal: gateRefusal(d, gate, reason),
  });
  if (d.decision === 'DENY') return refuse('DENY', denyReason(d));
  if (d.decision === 'REQUIRE_CONFIRMATION') {
    const confirmation = options.confirm === undefined ? false : await options.confirm(d, input);
    if (confirmation === false) {
      if (recorded) await recordOutcome(options.store, id, [d.propositionId], 'not_confirmed', null);
      return refuse('REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`);
    }
    if (recorded) {
      const stored = await readDecision(options.store, id);
      const bound = await confirmAndRecheck(options.store, stored, confirmation);
      if (bound.decision !== 'MAY_ACT') return refuse('DENY', bound.reason);
    }
  }
  if (!recorded) return { status: 'executed', decisionId: null, decision: d, result: await execute(input) };
  const claimed = typeof callId === 'string' && callId !== '' ? { gate: d.record.gate, callId } : undefined;
  return { status: 'executed', decisionId: id, decision: d, result: await executeOnce(options.store, id, [d.propositionId], input, execute, claimed) };
}

/** What a framework reports after it ran a claimed call. */
export interface CallOutcome {
  status: 'succeeded' | 'failed';
  /** The framework's error text for a failed call. */
  error?: string;
}

/**
 * Records the outcome of a call claimed with {@link claimDecision} (by its gate and call id), e.g.
 * from Claude Code's PostToolUse / PostToolUseFailure event. Returns the decision id the call ran
 * under, or `undefined` when the call was never claimed (nothing is recorded: an outcome without a
 * claim would say a decision ran that nobody allowed).
 * @throws {DecisionError} `EWP_REFUSE_DECISION_NOT_EXECUTABLE` when another outcome is already
 * recorded for that decision; `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record it.
 */
export async function recordCallOutcome(store: EvidenceStore, gate: string, callId: string, outcome: CallOutcome): Promise<string | undefined> {
  if (outcome.status !== 'succeeded' && outcome.status !== 'failed') {
    throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'outcome.status must be succeeded or failed', { path: '$.status' });
  }
  const [claim] = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call, id: callClaimId(gate, callId), limit: 1 });
  const decisionId = claim?.body.decision_id;
  if (typeof decisionId !== 'string') return undefined;
  await recordOutcome(store, decisionId, claim?.subjects ?? [], outcome.status, outcome.status === 'failed' ? (outcome.error ?? 'failed') : null);
  return decisionId;
}

/** The `execute` of a claim-only run: claimed, nothing run, no outcome yet. */
const CLAIM_ONLY = Symbol('claim only');

/**
 * A later use of a recorded decision (decide now, execute later, possibly in another process): the
 * effective decision is min(the recorded decision, or MAY_ACT when `confirmation` lifts a
 * REQUIRE_CONFIRMATION, and the recovery gate now). Runs at most once per decision, and at most
 * once per call the decision records (its gate and call id), as {@link runGuarded}.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_UNKNOWN` for an id the ledger does not hold;
 * `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record the claim or the outcome;
 * `EWP_REFUSE_DECISION_NOT_EXECUTABLE` when the decision, or its call under another decision, was already executed.
 */
export async function runDecision<INPUT, R>(
  store: EvidenceStore,
  decisionId: string,
  input: INPUT,
  execute: (input: INPUT) => Promise<R> | R,
  options: { confirmation?: Confirmation } = {},
): Promise<GuardedRun<R>> {
  return runStored(store, decisionId, input, execute, options);
}

/**
 * {@link runDecision} for a framework that runs the call itself once the gate allows it (Claude Code
 * runs its own tools after a PreToolUse `allow`): the same checks, then the one execution of the
 * decision and of its call claimed exactly as `runDecision` claims them, with nothing run. The
 * framework's report of the run is recorded with {@link recordCallOutcome}; `executed` here means
 * claimed (the result is `undefined`).
 * @throws {DecisionError} as {@link runDecision}: nothing is allowed unless the claim is recorded.
 */
export async function claimDecision<INPUT>(
  store: EvidenceStore,
  decisionId: string,
  input: INPUT,
  options: { confirmation?: Confirmation } = {},
): Promise<GuardedRun<undefined>> {
  return runStored(store, decisionId, input, CLAIM_ONLY, options);
}

async function runStored<INPUT, R>(
  store: EvidenceStore,
  decisionId: string,
  input: INPUT,
  execute: ((input: INPUT) => Promise<R> | R) | typeof CLAIM_ONLY,
  options: { confirmation?: Confirmation },
): Promise<GuardedRun<R>> {
  const stored = await readDecision(store, decisionId);
  const refuse = (reason: string): GuardedRun<R> => ({ status: 'refused', decisionId, decision: null, reason, refusal: null });
  const recorded = stored.record.decision;
  if (recorded === 'DENY') return refuse(`decision ${decisionId} was DENY`);
  if (recorded === 'REQUIRE_CONFIRMATION' && options.confirmation === undefined) return refuse(`decision ${decisionId} needs a recorded confirmation`);
  const bound =
    recorded === 'REQUIRE_CONFIRMATION'
      ? await confirmAndRecheck(store, stored, options.confirmation as Confirmation)
      : await recheck(store, stored, 'MAY_ACT');
  if (bound.decision !== 'MAY_ACT') return refuse(bound.reason);
  const subjects = stored.record.consulted.map((c) => c.proposition_id);
  // The record names its call (a random id when the gate was given none, which no other decision shares).
  const call = { gate: stored.record.gate, callId: stored.record.call_id };
  return { status: 'executed', decisionId, decision: null, result: await executeOnce(store, decisionId, subjects, input, execute, call) };
}

async function confirmAndRecheck(store: EvidenceStore, stored: StoredDecision, confirmation: Confirmation): Promise<{ decision: Decision; reason: string }> {
  if (typeof confirmation?.confirmedBy !== 'string' || confirmation.confirmedBy === '') {
    throw new DecisionError('EWP_REFUSE_DECISION_NOT_EXECUTABLE', 'a confirmation names who confirmed', {
      path: '$.confirmedBy',
      decisionId: stored.decision_id,
    });
  }
  await append(store, [
    {
      kind: DECISION_ENTRY_KINDS.confirmation,
      id: stored.decision_id,
      subjects: stored.record.consulted.map((c) => c.proposition_id),
      body: { decision_id: stored.decision_id, confirmed_by: confirmation.confirmedBy, confirmed_at: new Date().toISOString() },
    },
  ]);
  return recheck(store, stored, 'MAY_ACT');
}

/** The recovery gate now, for a later use of a stored decision (its evidence may have changed since). */
async function recheck(store: EvidenceStore, stored: StoredDecision, permitted: Decision): Promise<{ decision: Decision; reason: string }> {
  const ledger = DecisionLedger.for(store);
  await ledger.sync();
  const gate = await recoveryGateOf(store, ledger, stored, new Map(), false);
  const decision = minDecision(permitted, gate.decision);
  const changed = Object.entries(gate.invalidated)
    .map(([pid, why]) => `${pid} (${why})`)
    .join(', ');
  return {
    decision,
    reason: decision === 'MAY_ACT' ? 'permitted' : `the evidence decision ${stored.decision_id} rested on changed since: ${changed}; decide again`,
  };
}

function payloadDigest(decisionId: string, input: unknown): string {
  try {
    return operationDigest({ decision_id: decisionId, input: input === undefined ? null : input });
  } catch {
    // Input EBCJ-1 cannot carry (a float, a class instance): its JSON text stands for it.
    return operationDigest({ decision_id: decisionId, input_json: JSON.stringify(input) ?? null });
  }
}

/**
 * Claims the one execution of a decision (and of its call, when given) in the ledger, runs it,
 * records the outcome. Both claims are one `appendEntries` write: the store checks and appends them
 * under its one write lock, so of two decisions racing for a call, one write is stored whole and the
 * other is refused whole (another body under the call's `(kind, id)`).
 */
async function executeOnce<INPUT, R>(
  store: EvidenceStore,
  decisionId: string,
  subjects: readonly string[],
  input: INPUT,
  execute: ((input: INPUT) => Promise<R> | R) | typeof CLAIM_ONLY,
  call: CallClaim | undefined,
): Promise<R> {
  const claims: LedgerEntryInput[] = [
    { kind: DECISION_ENTRY_KINDS.execution, id: decisionId, subjects, body: { decision_id: decisionId, operation_digest: payloadDigest(decisionId, input) } },
  ];
  if (call !== undefined) {
    claims.push({
      kind: DECISION_ENTRY_KINDS.call,
      id: callClaimId(call.gate, call.callId),
      subjects,
      body: { gate: call.gate, call_id: call.callId, decision_id: decisionId },
    });
  }
  let claimed: AppendEntryResult[];
  try {
    claimed = await append(store, claims);
  } catch (error) {
    if (call !== undefined && DecisionError.isInstance(error) && error.code === 'EWP_REFUSE_DECISION_NOT_EXECUTABLE') {
      await refuseClaimedCall(store, decisionId, subjects, call, error);
    }
    throw error;
  }
  // `unchanged`: these very claims are stored already, so this decision ran.
  if (claimed.some((c) => c.status !== 'stored')) {
    throw new DecisionError('EWP_REFUSE_DECISION_NOT_EXECUTABLE', `decision ${decisionId} has already been executed once`, { decisionId });
  }
  if (execute === CLAIM_ONLY) return undefined as R;
  let result: R;
  try {
    result = await execute(input);
  } catch (error) {
    await recordOutcome(store, decisionId, subjects, 'failed', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    throw error;
  }
  await recordOutcome(store, decisionId, subjects, 'succeeded', null);
  return result;
}

/**
 * When the call was claimed under another decision: record this decision's refusal as its outcome
 * and throw it. Returns when the claim that refused the write is not the call's (the decision's own).
 */
async function refuseClaimedCall(
  store: EvidenceStore,
  decisionId: string,
  subjects: readonly string[],
  call: CallClaim,
  refused: DecisionError,
): Promise<void> {
  let prior: unknown;
  try {
    const [claim] = await store.readEntries({ kind: DECISION_ENTRY_KINDS.call, id: callClaimId(call.gate, call.callId), limit: 1 });
    prior = claim?.body.decision_id;
  } catch {
    return; // the claim cannot be read: the refusal stands as it is
  }
  if (typeof prior !== 'string' || prior === decisionId) return;
  const reason = `call ${JSON.stringify(call.callId)} of gate ${JSON.stringify(call.gate)} was already executed under decision ${prior}; decision ${decisionId} does not run it again`;
  let unrecorded: unknown;
  try {
    await recordOutcome(store, decisionId, subjects, 'call_already_executed', reason);
  } catch (error) {
    unrecorded = error;
  }
  throw new DecisionError('EWP_REFUSE_DECISION_NOT_EXECUTABLE', unrecorded === undefined ? reason : `${reason} (the refusal could not be recorded)`, {
    decisionId,
    cause: unrecorded ?? refused,
  });
}

async function recordOutcome(store: EvidenceStore, decisionId: string, subjects: readonly string[], status: string, error: string | null): Promise<void> {
  await append(store, [
    {
      kind: DECISION_ENTRY_KINDS.outcome,
      id: decisionId,
      subjects,
      body: { decision_id: decisionId, status, error, finished_at: new Date().toISOString() },
    },
  ]);
}

/** Appends entries of one decision (the first names it) in one write; a refusal is a {@link DecisionError}. */
async function append(store: EvidenceStore, entries: readonly LedgerEntryInput[]): Promise<AppendEntryResult[]> {
  const [first] = entries as [LedgerEntryInput];
  const what = entries.map((e) => `${e.kind} of ${e.id}`).join(' and ');
  try {
    return await store.appendEntries(entries);
  } catch (error) {
    // Another body under the same (kind, id): the replay guard's conflict, never a second run.
    if (EwpError.isInstance(error) && error.code === 'EWP_REFUSE_IMMUTABLE_RECORD') {
      throw new DecisionError('EWP_REFUSE_DECISION_NOT_EXECUTABLE', `${what}: already recorded with another payload`, {
        decisionId: first.id,
        cause: error,
      });
    }
    throw new DecisionError('EWP_REFUSE_DECISION_NOT_RECORDED', `the ledger could not record ${what}`, {
      decisionId: first.id,
      cause: error,
    });
  }
}
