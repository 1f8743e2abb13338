/**
 * The EWP-0.2.0 data model (docs/spec/protocol.md §3, §7, §9). Field names are the wire names, so a decoded view
 * serializes back to the protocol's JSON unchanged.
 */

/** The protocol version this package implements. */
export const PROTOCOL_VERSION = 'EWP-0.2.0' as const;
/** The only evaluation policy this package implements (id and version). */
export const POLICY_ID = 'reference-v2' as const;
/** The version of the one policy this package implements. */
export const POLICY_VERSION = 'reference-v2' as const;
/** Default `freshness_policy_seconds` (30 days). */
export const DEFAULT_FRESHNESS_SECONDS = 2_592_000;
/** Largest accepted `freshness_policy_seconds` (2^53 − 1). */
export const MAX_FRESHNESS_SECONDS = Number.MAX_SAFE_INTEGER;

/**
 * The protocol's vocabulary as values, in the order of the protocol's tables: the one place every
 * schema, gate table, rank, badge and projection derives its lists from (the types below are derived
 * from these too). Frozen.
 */
export const AXIS_VALUES = Object.freeze({
  acceptance: Object.freeze(['UNACCEPTED', 'TENTATIVE', 'ACCEPTED'] as const),
  conflict: Object.freeze(['NONE', 'OPEN', 'RESOLVED'] as const),
  verification: Object.freeze(['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN'] as const),
  currency: Object.freeze(['CURRENT', 'STALE', 'SUPERSEDED'] as const),
  sufficiency: Object.freeze(['SUFFICIENT', 'INSUFFICIENT', 'DEGRADED'] as const),
});

/** The five axes, in the order the protocol lists them. */
export const AXES = Object.freeze(Object.keys(AXIS_VALUES) as (keyof typeof AXIS_VALUES)[]);

/** An action's risk levels, lowest first. */
export const RISKS = Object.freeze(['low', 'medium', 'high'] as const);

/** `mayAct`'s decisions, least permissive first (a minimum of two decisions is the earlier one). */
export const DECISIONS = Object.freeze(['DENY', 'REQUIRE_CONFIRMATION', 'MAY_ACT'] as const);

/** The fields of a {@link SourceRef}, in wire order. */
export const SOURCE_REF_FIELDS = Object.freeze([
  'source_id',
  'lineage_id',
  'origin_type',
  'origin_locator',
  'snapshot_id',
  'content_hash',
  'observed_at',
  'extractor_id',
  'parent_source_id',
] as const);

/** Exactly the protocol fields of a SourceRef, in wire order: any other property of `s` is left out. */
export function sourceRefOf(s: SourceRef): SourceRef {
  // A literal, not a loop over SOURCE_REF_FIELDS: stores call it per record on every read (a test holds the two equal).
  return {
    source_id: s.source_id,
    lineage_id: s.lineage_id,
    origin_type: s.origin_type,
    origin_locator: s.origin_locator,
    snapshot_id: s.snapshot_id,
    content_hash: s.content_hash,
    observed_at: s.observed_at,
    extractor_id: s.extractor_id,
    parent_source_id: s.parent_source_id,
  };
}

/** The record kinds of a view that carry a source (and their id fields). */
export const RECORD_ID_FIELDS = Object.freeze({ assertion: 'assertion_id', evidence: 'evidence_id', check: 'check_id' } as const);

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

/** An evidence item's polarity. */
export const POLARITIES = Object.freeze(['supports', 'opposes'] as const);
/** A verification check's result. */
export const CHECK_RESULTS = Object.freeze(['supports', 'opposes', 'inconclusive'] as const);
/** A conflict row's status. */
export const CONFLICT_STATUSES = Object.freeze(['open', 'resolved'] as const);
/** A lineage edge's kind. */
export const LINEAGE_KINDS = Object.freeze(['derived_from', 'supersedes', 'superseded_by', 'parent_source'] as const);

/** An evidence item's polarity: for or against the proposition. */
export type Polarity = (typeof POLARITIES)[number];
/** A verification check's result. */
export type CheckResult = (typeof CHECK_RESULTS)[number];
/** A conflict row's status. */
export type ConflictStatus = (typeof CONFLICT_STATUSES)[number];
/** A lineage edge's kind. */
export type LineageKind = (typeof LINEAGE_KINDS)[number];

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

/** The acceptance axis: UNACCEPTED, TENTATIVE or ACCEPTED. */
export type Acceptance = (typeof AXIS_VALUES.acceptance)[number];
/** The conflict axis: NONE, OPEN or RESOLVED. */
export type ConflictAxis = (typeof AXIS_VALUES.conflict)[number];
/** The verification axis: the highest class of the view's checks. */
export type Verification = (typeof AXIS_VALUES.verification)[number];
/** The currency axis: CURRENT, STALE or SUPERSEDED. */
export type Currency = (typeof AXIS_VALUES.currency)[number];
/** The sufficiency axis: SUFFICIENT, INSUFFICIENT or DEGRADED. */
export type Sufficiency = (typeof AXIS_VALUES.sufficiency)[number];

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

/** An action's risk level. */
export type Risk = (typeof RISKS)[number];

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

/** A decision of `mayAct`: DENY, REQUIRE_CONFIRMATION or MAY_ACT. */
export type Decision = (typeof DECISIONS)[number];

/**
 * The gate names decision records carry: one per binding that decides (its gate and its `ewp_may_act`
 * tool record under it), `ewp_may_act` for a tool call no binding named, `library` for a direct call,
 * `cli` for the command line. A user's own `record.gate` may name any other.
 */
export const GATE_NAMES = Object.freeze([
  'ai-sdk',
  'ai-sdk-v7',
  'langchain',
  'mastra',
  'openai-agents',
  'adk',
  'claude-code',
  'mcp',
  'cli',
  'library',
  'ewp_may_act',
] as const);

/** A gate name of this repository's bindings. */
export type GateName = (typeof GATE_NAMES)[number];
