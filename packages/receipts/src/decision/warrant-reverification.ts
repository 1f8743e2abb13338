import type { EvidenceView, SourceRef } from '@ewp/core';
import { type Checkpoint, type EvidenceRecord, checkpoint, evidenceRecord } from '../checkpoint/model.js';
import { type EvidenceState, type VerificationResult, verifyCheckpoint } from '../checkpoint/verification.js';
import { propositionNode } from '../lineage/lineage-reevaluation.js';
import type { InvalidationReason } from '../recovery/recovery-plan.js';
import { projectRecords, projectViewMeta } from '../warrant/view-projection.js';
import { WARRANT_POLICY } from '../warrant/warrant-receipt.js';

/** The evidence id of the synthetic record holding a view's view-level fields (docs/spec/receipts.md §12.4). */
export const VIEW_META_EVIDENCE_ID = 'view:meta';

/*
 * Warrant checkpoints leave provenance out of the decision (docs/spec/receipts.md §12.9): many records
 * carry an empty origin_locator, which §2.1 would call incomplete and block on.
 */
const WARRANT_CHECKPOINT_POLICY = { policy_id: WARRANT_POLICY.policy_id, version: WARRANT_POLICY.policy_version, require_provenance: false } as const;

function provenanceOf(source: SourceRef | null) {
  if (source === null) return null;
  return {
    source: source.source_id,
    locator: source.origin_locator,
    retrieved_at: source.observed_at,
    content_type: source.origin_type,
    metadata: {
      lineage_id: source.lineage_id,
      snapshot_id: source.snapshot_id,
      content_hash: source.content_hash,
      extractor_id: source.extractor_id,
      parent_source_id: source.parent_source_id,
    },
  };
}

/**
 * A view's evidence records for a warrant checkpoint (docs/spec/receipts.md §12.4): one per projected record
 * (`evidence:E-3`, `check:C-1`, …, payload without its SourceRef), plus `view:meta`. Records whose
 * `<kind>:<id>` is in `refuted` carry `explicitly_refuted` (an explicit retraction, never an
 * opposing record).
 */
export function warrantEvidence(view: EvidenceView, refuted: ReadonlySet<string> = new Set()): EvidenceRecord[] {
  const out = projectRecords(view).map((r) =>
    evidenceRecord({ evidence_id: r.id, payload: r.record, provenance: provenanceOf(r.source), explicitly_refuted: refuted.has(r.id) }),
  );
  out.push(evidenceRecord({ evidence_id: VIEW_META_EVIDENCE_ID, payload: projectViewMeta(view), provenance: null }));
  return out;
}

/**
 * The warrant checkpoint `prop:<id>` of one evaluated snapshot: its evidence records, the warrant
 * receipt digest as output, the `reference-v2` binding, and the propositions it was derived from.
 */
export function warrantCheckpoint(view: EvidenceView, receiptDigest: string | null, derivedFrom: readonly string[] = []): Checkpoint {
  return checkpoint({
    checkpoint_id: propositionNode(view.proposition_id),
    agent: 'ewp',
    evidence: warrantEvidence(view),
    output: { warrant_receipt_digest: receiptDigest, view_id: view.view_id },
    policy: WARRANT_CHECKPOINT_POLICY,
    depends_on: derivedFrom.map(propositionNode),
  });
}

/** What {@link reverifyWarrant} found. */
export interface WarrantReverification {
  proposition_id: string;
  /** The snapshot the stored warrant was evaluated on, and the newest one. */
  evaluated_view_id: string;
  newest_view_id: string | null;
  /** ALLOW: the stored warrant may be reused as is; otherwise re-run `warrantNow` on the newest view. */
  action: VerificationResult['action'];
  /** Records by state, only the states other than UNCHANGED (e.g. `{"check:C-1": "REFUTED"}`). */
  changes: Record<string, EvidenceState>;
  /** The invalidation reason for recovery planning, or null when the warrant is reusable. */
  invalidation: InvalidationReason | null;
  result: VerificationResult;
  /** The newest snapshot's evidence records, as compared (retracted ones flagged). */
  current: EvidenceRecord[];
}

/**
 * Re-verifies a warrant evaluated on `evaluated` against the newest snapshot of the same proposition
 * (docs/spec/receipts.md §12.4): UNCHANGED / CHANGED / NEW / MISSING come from comparing the records; REFUTED only
 * from `refuted` (explicit retractions); STALE never (freshness is the currency axis's business).
 * `newest` undefined means the proposition has no snapshot any more: every record is MISSING.
 */
export function reverifyWarrant(
  evaluated: EvidenceView,
  newest: EvidenceView | undefined,
  options: { refuted?: ReadonlySet<string>; receiptDigest?: string | null } = {},
): WarrantReverification {
  const cp = warrantCheckpoint(evaluated, options.receiptDigest ?? null);
  const records = newest === undefined ? [] : warrantEvidence(newest, options.refuted);
  const result = verifyCheckpoint(cp, { currentEvidence: new Map(records.map((r) => [r.evidence_id, r])) });
  const changes: Record<string, EvidenceState> = {};
  const states = new Set<EvidenceState>();
  for (const a of result.evidence) {
    if (a.state === 'UNCHANGED') continue;
    changes[a.evidence_id] = a.state;
    states.add(a.state);
  }
  return {
    proposition_id: evaluated.proposition_id,
    evaluated_view_id: evaluated.view_id,
    newest_view_id: newest?.view_id ?? null,
    action: result.action,
    changes,
    invalidation: result.action === 'ALLOW' ? null : invalidationReason(states),
    result,
    current: records,
  };
}

/** The most severe state decides the reason: a retraction, then a loss, then a change. */
function invalidationReason(states: ReadonlySet<EvidenceState>): InvalidationReason {
  if (states.has('REFUTED')) return 'evidence_refuted';
  if (states.has('MISSING')) return 'evidence_missing';
  if (states.has('STALE')) return 'evidence_stale';
  return 'evidence_changed';
}
