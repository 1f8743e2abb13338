/**
 * The inspector's wire types: what its JSON API sends and its page reads. Types only, imported by
 * both the server (inspector-api.ts) and the page (web/src/api.ts), so the two cannot drift.
 */
import type { Assertion, EvidenceItem, EvidenceView, RiskPolicy, SourceRef, VerificationCheck, Warrant } from '@ewp/core';
import type { EvidenceStore, SnapshotSummary } from '@ewp/ledger';
import type { OriginTrust } from '@ewp/tools';

/** {@link EvidenceStore.verifyChain}'s result and when it was computed. */
export type ChainStatus = Awaited<ReturnType<EvidenceStore['verifyChain']>> & { verified_at: string };

/** How often one (loss class, field) was observed by the conformance suite, and where. */
export interface LossCount {
  /** Every observation (a fixture can be seen by several checks). */
  observations: number;
  /** Distinct pack fixtures among them. */
  fixtures: number;
  /** Observations made by checks that are not a pack fixture (`native-records`, `snapshot-contract`). */
  other_checks: Record<string, number>;
}

/** One adapter's entry of the conformance loss report (`ewp conformance --report`). */
export interface AdapterLossReport {
  adapter: string;
  fixtures: number;
  ok: boolean;
  /** Loss class → field → how often it was observed, and where. */
  losses: Record<string, Record<string, LossCount>>;
  unexpected: number;
  stale: number;
  [key: string]: unknown;
}

/** What the page shows about where the evidence came from. */
export interface LossReportPanel {
  /** The adapter in front of the store, when the caller named one. */
  adapter: string | null;
  /** Its measured report; `null` for a native ledger or an adapter the report does not cover. */
  report: AdapterLossReport | null;
  /** Every adapter the shipped report covers. */
  covered: string[];
}

/** One row of the proposition list. */
export interface PropositionRow {
  proposition_id: string;
  latest_view_id: string;
  assertions: string[];
  snapshots: number;
  /** The latest snapshot's axes at T, or why they could not be computed. */
  warrant: Omit<Warrant, 'rationale_codes' | 'strength'> | { error: string };
}

export interface PropositionPage {
  evaluated_at: string;
  query: string;
  offset: number;
  limit: number;
  items: PropositionRow[];
  /** Whether a further page exists. */
  has_more: boolean;
}

/**
 * A snapshot on the wire: each record's `source` is replaced by its `source_id`, and the SourceRefs
 * are sent once in `sources`. A view never uses one source_id for two different SourceRefs (the
 * decoder refuses it, docs/spec/protocol.md §4), so nothing is lost; a large proposition's answer
 * shrinks by more than half.
 */
export type WireView = Omit<EvidenceView, 'assertions' | 'evidence' | 'checks'> & {
  sources: Record<string, SourceRef>;
  assertions: (Omit<Assertion, 'source'> & { source: string })[];
  evidence: (Omit<EvidenceItem, 'source'> & { source: string })[];
  checks: (Omit<VerificationCheck, 'source'> & { source: string })[];
};

export interface PropositionDetail {
  view: WireView;
  /** Oldest first. */
  snapshots: SnapshotSummary[];
  /** `origin_type` → how the policy and the ingest rules treat it. */
  origin_trust: Record<string, OriginTrust>;
}

export interface InspectorMeta {
  protocol_version: string;
  policy: { policy_id: string; version: string };
  risk_policy: RiskPolicy;
  /** Server clock at the request, so the page opens at "now". */
  now: string;
  label: string;
  capabilities: EvidenceStore['capabilities'];
  loss: LossReportPanel;
}
