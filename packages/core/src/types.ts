/**
 * EWP-0.2.0 data model (docs/spec/protocol.md §3, §7, §9). Field names are the wire names, so a decoded view
 * serializes back to the protocol's JSON unchanged.
 * @packageDocumentation
 */

/** The protocol version this package implements. */
export const PROTOCOL_VERSION = 'EWP-0.2.0' as const;
/** The only evaluation policy this package implements (id and version). */
export const POLICY_ID = 'reference-v2' as const;
export const POLICY_VERSION = 'reference-v2' as const;
/** Default `freshness_policy_seconds` (30 days). */
export const DEFAULT_FRESHNESS_SECONDS = 2_592_000;
/** Largest accepted `freshness_policy_seconds` (2^53 − 1). */
export const MAX_FRESHNESS_SECONDS = Number.MAX_SAFE_INTEGER;

/** Where a record came from. `observed_at` here is stored only, never parsed. */
export interface SourceRef {
  source_id: string;
  lineage_id: string;
  origin_type: string;
  origin_locator: string;
  snapshot_id: string;
  content_hash: string;
  observed_at: string;
  extractor_id: string | null;
  parent_source_id: string | null;
}

/** A claim that P holds. Assertions carry no polarity. */
export interface Assertion {
  assertion_id: string;
  proposition_id: string;
  text: string;
  asserted_by: string;
  /** Always a finite double; never used by evaluation. */
  assertion_confidence: number;
  source: SourceRef;
  asserted_at: string;
}

export type Polarity = 'supports' | 'opposes';
export type CheckResult = 'supports' | 'opposes' | 'inconclusive';
export type ConflictStatus = 'open' | 'resolved';
export type LineageKind = 'derived_from' | 'supersedes' | 'superseded_by' | 'parent_source';

/** An observation for or against P. */
export interface EvidenceItem {
  evidence_id: string;
  proposition_id: string;
  polarity: Polarity;
  source: SourceRef;
  content: string;
  observed_at: string;
}

/** A verification of P by some method; its origin decides whether it can confer EXTERNAL/HUMAN. */
export interface VerificationCheck {
  check_id: string;
  method: string;
  scope: string;
  source: SourceRef;
  observed_at: string;
  result: CheckResult;
  subjects: string[];
}

/** A recorded conflict row; rows carry no time and are never filtered by T. */
export interface Conflict {
  conflict_id: string;
  proposition_ids: string[];
  status: ConflictStatus;
  note: string;
}

/** A lineage edge; edges carry no time and are never filtered by T. */
export interface LineageEdge {
  from_id: string;
  to_id: string;
  kind: LineageKind;
}

/** A decoded, validated EvidenceView (docs/spec/protocol.md §3.3), with every default applied. */
export interface EvidenceView {
  proposition_id: string;
  view_id: string;
  assertions: Assertion[];
  evidence: EvidenceItem[];
  lineage: LineageEdge[];
  conflicts: Conflict[];
  checks: VerificationCheck[];
  omitted_sources: string[];
  retrieval_scope: string;
  degraded: boolean;
  freshness_policy_seconds: number;
  /** Opaque to evaluation; kept for adapters (scores, store confidences, notes). */
  adapter_meta: Record<string, unknown>;
  subjects: string[];
}

/** An evaluation policy identity. Only `reference-v2`/`reference-v2` is implemented. */
export interface Policy {
  policy_id: string;
  version: string;
}

/** The one policy this package implements. */
export const REFERENCE_V2: Readonly<Policy> = Object.freeze({
  policy_id: POLICY_ID,
  version: POLICY_VERSION,
});

export type Acceptance = 'UNACCEPTED' | 'TENTATIVE' | 'ACCEPTED';
export type ConflictAxis = 'NONE' | 'OPEN' | 'RESOLVED';
export type Verification = 'NONE' | 'INDIRECT' | 'EXTERNAL' | 'HUMAN';
export type Currency = 'CURRENT' | 'STALE' | 'SUPERSEDED';
export type Sufficiency = 'SUFFICIENT' | 'INSUFFICIENT' | 'DEGRADED';

/** The five axes plus the non-normative strength and rationale codes. */
export interface Warrant {
  acceptance: Acceptance;
  conflict: ConflictAxis;
  verification: Verification;
  currency: Currency;
  sufficiency: Sufficiency;
  /** Non-normative (docs/spec/protocol.md §7.4); never branch on it. */
  strength: number;
  /** Non-normative (docs/spec/protocol.md §7.5). */
  rationale_codes: string[];
}

/** The full WarrantView (docs/spec/protocol.md §7): normative identity + axes, and the reference's diagnostics. */
export interface WarrantView {
  protocol_version: typeof PROTOCOL_VERSION;
  proposition_id: string;
  view_id: string;
  policy_id: string;
  policy_version: string;
  /** T exactly as given, never normalised. */
  evaluated_at: string;
  warrant: Warrant;
  supporting_evidence_ids: string[];
  opposing_evidence_ids: string[];
  independent_lineage_count: number;
  checks: string[];
  freshest_check: string | null;
  stale: boolean;
  open_conflicts: string[];
  resolved_conflicts: string[];
  omitted_sources: string[];
  derived_from: string[];
  supersedes: string[];
  superseded_by: string[];
  falsification_conditions: string[];
}

export type Risk = 'low' | 'medium' | 'high';

/** Something an agent wants to do on the strength of a proposition (docs/spec/protocol.md §9). */
export interface Action {
  action_id: string;
  kind: string;
  /** Default `true`. */
  reversible?: boolean;
  /** Default `low`. */
  risk?: Risk;
}

/** The action policy read by `mayAct` (docs/spec/protocol.md §9). */
export interface RiskPolicy {
  policy_id?: string;
  version?: string;
  /** Default `true`. */
  high_requires_accepted?: boolean;
  /** Default `true`. */
  high_requires_no_open_conflict?: boolean;
}

export type Decision = 'MAY_ACT' | 'REQUIRE_CONFIRMATION' | 'DENY';
