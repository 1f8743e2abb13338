/**
 * Explicit retractions and re-evaluations as ledger entries (docs/spec/receipts.md §12.4, §12.8). A retraction
 * (`invalidation`) makes the named records REFUTED in every later re-verification; a re-evaluation
 * (`warrant.evaluated`) evaluates the newest snapshot, binds it with a warrant receipt, and lifts
 * the recovery gate for the proposition once that snapshot holds no retracted record.
 */
import { domainDigest } from '@ewp/canonical';
import { REFERENCE_V2, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type InvalidationReason, INVALIDATION_REASONS, warrantReceiptDigest, warrantReceiptFor } from '@ewp/receipts';
import { DecisionError } from './decision-error.js';
import { DecisionLedger } from './decision-ledger.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';
import { reevaluationResult } from './recovery-check.js';

/** An explicit retraction of records of one proposition. */
export interface Retraction {
  proposition_id: string;
  /** Records as `<kind>:<id>` (`check:C-1`, `evidence:E-3`, `assertion:A-1`). */
  records: readonly string[];
  /** Default `evidence_refuted`. */
  reason?: InvalidationReason;
  /** Who retracted it and why, in words. */
  note?: string;
  /** When (ISO 8601); default now. */
  at?: string;
}

const RECORD_ID = /^(assertion|evidence|check|conflict):.+$/s;

/**
 * Appends an `invalidation` entry; returns its id. Every named record must be held by a stored
 * snapshot of the proposition (any of them, not only the newest).
 * @throws {DecisionError} `EWP_REFUSE_INVALID_ARGUMENTS` for a malformed retraction, or one naming a
 * proposition or record that no stored snapshot holds (the path names it; nothing is recorded); `EWP_REFUSE_DECISION_NOT_RECORDED` for a ledger failure.
 */
export async function recordRetraction(store: EvidenceStore, retraction: Retraction): Promise<string> {
  const bad = (path: string, what: string) => new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', what, { path });
  if (typeof retraction.proposition_id !== 'string' || retraction.proposition_id === '')
    throw bad('$.proposition_id', 'proposition_id must be a non-empty string');
  if (!Array.isArray(retraction.records) || retraction.records.length === 0) throw bad('$.records', 'records must list at least one <kind>:<id>');
  for (const [i, r] of retraction.records.entries()) {
    if (typeof r !== 'string' || !RECORD_ID.test(r))
      throw bad(`$.records[${i}]`, 'a record is named <kind>:<id>, kind one of assertion, evidence, check, conflict');
  }
  const reason = retraction.reason ?? 'evidence_refuted';
  if (!INVALIDATION_REASONS.includes(reason)) throw bad('$.reason', `reason must be one of ${INVALIDATION_REASONS.join(', ')}`);
  // A retraction of what no snapshot holds would be recorded for good and retract nothing: the
  // operator would believe bad evidence is gone. A typo is refused instead.
  const unheld = await recordsNoSnapshotHolds(store, retraction.proposition_id, retraction.records);
  if (unheld === undefined) {
    throw bad('$.proposition_id', `no snapshot of ${JSON.stringify(retraction.proposition_id)} in the ledger, so nothing to retract (nothing recorded)`);
  }
  if (unheld.length > 0) {
    const i = retraction.records.indexOf(unheld[0] as string);
    throw bad(
      `$.records[${i}]`,
      `no snapshot of ${JSON.stringify(retraction.proposition_id)} holds ${unheld.map((r) => JSON.stringify(r)).join(', ')} (nothing recorded)`,
    );
  }
  const body = {
    proposition_id: retraction.proposition_id,
    records: [...retraction.records],
    reason,
    note: retraction.note ?? null,
    at: retraction.at ?? new Date().toISOString(),
  };
  const id = `inv_${domainDigest('ewp-invalidation', body).slice(0, 32)}`;
  try {
    await store.appendEntries([{ kind: DECISION_ENTRY_KINDS.invalidation, id, subjects: [retraction.proposition_id], body }]);
  } catch (error) {
    throw new DecisionError('EWP_REFUSE_DECISION_NOT_RECORDED', `the ledger could not record the retraction of ${retraction.proposition_id}`, { cause: error });
  }
  return id;
}

/** The field naming each kind of record a retraction may name (`check:C-1` is a check's `check_id`). */
const RECORD_LISTS = [
  ['assertion', 'assertions', 'assertion_id'],
  ['evidence', 'evidence', 'evidence_id'],
  ['check', 'checks', 'check_id'],
  ['conflict', 'conflicts', 'conflict_id'],
] as const;

/**
 * The records (`<kind>:<id>`) that no stored snapshot of the proposition holds, in the order given;
 * undefined when the ledger holds no snapshot of it. Newest snapshot first, stopping once all are found.
 */
async function recordsNoSnapshotHolds(store: EvidenceStore, propositionId: string, records: readonly string[]): Promise<string[] | undefined> {
  const snapshots = await store.listSnapshots(propositionId);
  if (snapshots.length === 0) return undefined;
  const wanted = new Set(records);
  for (let i = snapshots.length - 1; i >= 0 && wanted.size > 0; i--) {
    const view = await store.get(propositionId, (snapshots[i] as { view_id: string }).view_id);
    if (view === undefined) continue;
    for (const [kind, list, field] of RECORD_LISTS) {
      for (const record of view[list] as readonly object[]) wanted.delete(`${kind}:${String((record as Record<string, unknown>)[field])}`);
    }
  }
  return records.filter((r) => wanted.has(r));
}

/** What {@link reevaluate} recorded. */
export interface Reevaluation {
  id: string;
  proposition_id: string;
  view_id: string;
  evaluated_at: string;
  receipt_digest: string;
  /** ALLOW: the newest snapshot holds no retracted record, so the proposition's recovery requirement is met. */
  action: 'ALLOW' | 'REVIEW_REQUIRED' | 'BLOCK';
  /** Retracted records still in the newest snapshot (`{"check:C-1": "REFUTED"}`). */
  changes: Record<string, string>;
}

/**
 * Re-evaluates a proposition on its newest snapshot at `evaluatedAt` (default now) and appends a
 * `warrant.evaluated` entry with the warrant receipt and its digest.
 * @throws {DecisionError} `EWP_REFUSE_DECISION_UNKNOWN` when nothing is stored for it;
 * `EWP_REFUSE_DECISION_NOT_RECORDED` when the ledger cannot record it.
 */
export async function reevaluate(store: EvidenceStore, propositionId: string, options: { evaluatedAt?: string } = {}): Promise<Reevaluation> {
  const view = await store.get(propositionId);
  if (view === undefined) {
    throw new DecisionError('EWP_REFUSE_DECISION_UNKNOWN', `no stored snapshot of ${JSON.stringify(propositionId)} to re-evaluate`, {
      path: '$.proposition_id',
    });
  }
  const evaluatedAt = options.evaluatedAt ?? new Date().toISOString();
  const warrant = warrantNow(view, REFERENCE_V2, evaluatedAt);
  const receipt = warrantReceiptFor(view, warrant);
  const ledger = DecisionLedger.for(store);
  await ledger.sync();
  const check = reevaluationResult(view, ledger.refuted(propositionId));
  const body = {
    proposition_id: propositionId,
    view_id: view.view_id,
    evaluated_at: evaluatedAt,
    receipt,
    receipt_digest: warrantReceiptDigest(receipt),
    action: check.action,
    changes: check.changes,
  };
  const id = `ev_${domainDigest('ewp-reevaluation', body).slice(0, 32)}`;
  try {
    await store.appendEntries([{ kind: DECISION_ENTRY_KINDS.evaluated, id, subjects: [propositionId], body }]);
  } catch (error) {
    throw new DecisionError('EWP_REFUSE_DECISION_NOT_RECORDED', `the ledger could not record the re-evaluation of ${propositionId}`, { cause: error });
  }
  return { id, ...body, changes: { ...check.changes } };
}
