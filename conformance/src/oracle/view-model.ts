/** The oracle's decoded view: every default applied, every text field converted (docs/spec/protocol.md §3). */

export interface OSource {
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

export interface OAssertion {
  assertion_id: string;
  proposition_id: string;
  text: string;
  asserted_by: string;
  assertion_confidence: number;
  source: OSource;
  asserted_at: string;
}

export interface OEvidence {
  evidence_id: string;
  proposition_id: string;
  polarity: string;
  source: OSource;
  content: string;
  observed_at: string;
}

export interface OCheck {
  check_id: string;
  method: string;
  scope: string;
  source: OSource;
  observed_at: string;
  result: string;
  subjects: string[];
}

export interface OConflict {
  conflict_id: string;
  proposition_ids: string[];
  status: string;
  note: string;
}

export interface OEdge {
  from_id: string;
  to_id: string;
  kind: string;
}

export interface OView {
  proposition_id: string;
  /** null when it has to be derived (docs/spec/protocol.md §8). */
  view_id: string | null;
  assertions: OAssertion[];
  evidence: OEvidence[];
  lineage: OEdge[];
  conflicts: OConflict[];
  checks: OCheck[];
  omitted_sources: string[];
  retrieval_scope: string;
  degraded: boolean;
  /** Exact integer, 0 … 2^53 − 1. */
  freshness_policy_seconds: bigint;
  subjects: string[];
}
