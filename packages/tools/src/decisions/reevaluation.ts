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
 * Appends an `invalidation` entry; returns its id.
 * @throws {DecisionError} `EWP_REFUSE_INVALID_ARGUMENTS` for a malformed retraction; `EWP_REFUSE_DECISION_NOT_RECORDED` for a ledger failure.
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
