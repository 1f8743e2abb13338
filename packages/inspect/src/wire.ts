/**
 * The inspector's wire types: what its JSON API sends and its page reads. Types only, imported by
 * both the server (inspector-api.ts) and the page (web/src/api.ts), so the two cannot drift.
 */
import type { Assertion, EvidenceItem, EvidenceView, RiskPolicy, SourceRef, VerificationCheck, Warrant } from '@ewp/core';
import type { EvidenceStore, SnapshotSummary } from '@ewp/ledger';
import type { EpistemicClass, EvidenceCounts, PromotionEventBody, LinkEventBody, MemoryConfig, MemoryState, ShownSalience } from '@ewp/memory';
import type { DecisionSummary, OriginTrust, StoredDecision } from '@ewp/tools';

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
  /** The page's rows; a row too large for the page's byte bound is shortened and carries `truncated: true`. */
  items: PropositionRow[];
  /** Whether a further page exists. */
  has_more: boolean;
  /** The `offset` of the next page (a page also stops at a byte bound, so it can hold fewer than `limit` rows); null on the last. */
  next_cursor: number | null;
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

/** One promotion attempt of a memory: a PROMO_GATE event of the audit chain. */
export interface MemoryGateAttempt {
  chain_index: number;
  committed_at: string;
  decision: PromotionEventBody['decision'];
  /** `promotion_blocked:no_evidence`, `promotion_allowed`, `promotion_allowed:gate_off`. */
  reason: PromotionEventBody['reason'];
  /** The class and the distinct sources the gate saw, against the threshold then in force. */
  class: EpistemicClass;
  distinct_sources: number;
  min_independent_sources: number;
  /** The evidence state (snapshot) the gate looked at. */
  view_id: string;
}

/** A LINK or REFUTE event naming the memory, as support (out) or as target (in). */
export interface MemoryLink {
  chain_index: number;
  committed_at: string;
  /** `in`: another memory supports or refutes this one; `out`: this memory supports or refutes another. */
  direction: 'in' | 'out';
  support: string;
  target: string;
  /** The proposition of the memory at the other end. */
  other: string;
  polarity: LinkEventBody['polarity'];
  /** An echo of an earlier text of the same source: it adds no source and no lineage. */
  echo: boolean;
  echo_of: string | null;
  lineage_id: string;
  /** The echo check: its measure, how many earlier texts it compared, the nearest similarity and the threshold (0–1). */
  measure: string;
  compared: number;
  similarity: number;
  threshold: number;
}

/** A RECLASS event of the memory. */
export interface MemoryReclass {
  chain_index: number;
  committed_at: string;
  from: EpistemicClass;
  to: EpistemicClass;
  reason: string | null;
}

/**
 * A proposition that is a memory of the evidence layer (@ewp/memory), read through its
 * `MemoryLedger`: the class and confidence its evidence gives at T, its salience, and its events.
 * Shown beside the warrant; none of it feeds the warrant, and the warrant feeds none of it.
 */
export interface MemoryPanel
  // As `MemoryState` says them: the class now (after any reclassification); confidence 0–100 at T, never from recall.
  extends Pick<MemoryState, 'hash' | 'proposition_id' | 'view_id' | 'text' | 'class' | 'project' | 'source' | 'evaluated_at' | 'confidence'> {
  /** The counts confidence is computed from. */
  counts: EvidenceCounts;
  /** Whether the memory is promoted: an `allowed` PROMO_GATE event is in the chain (known with or without salience). */
  promoted: boolean;
  /**
   * Recall count, energy, importance: how often and how strongly the memory is recalled. Not
   * evidence. `null` when the inspector was given no salience (it lives outside the ledger).
   * Its `promoted` is the chain's, as `MemoryLedger.show` returns it.
   */
  salience: ShownSalience | null;
  /** Where the salience was read (a file path), or why there is none. */
  salience_from: string;
  /** When the memory was stored (its STORE event). */
  stored: { chain_index: number; committed_at: string; class: EpistemicClass } | null;
  /** Oldest first. */
  gate: MemoryGateAttempt[];
  links: MemoryLink[];
  reclasses: MemoryReclass[];
  /** The thresholds the labels refer to. */
  config: Pick<MemoryConfig, 'gate_promotion' | 'min_independent_sources' | 'promotion_energy' | 'recall_energy' | 'confirmed_confidence'>;
}

/** `GET /api/memory`: the memory panel, or `null` when the proposition is no memory of the evidence layer. */
export interface MemoryAnswer {
  memory: MemoryPanel | null;
}

/** The recovery gate of a decision (docs/spec/receipts.md §12.6): its bound, why, and what must be re-evaluated. */
export type RecoveryGate = NonNullable<StoredDecision['record']['recovery']>;

/** One recorded gate decision, as the decision list shows it. */
export interface DecisionRow extends DecisionSummary {
  committed_at: string;
  /** Which gate decided (`ai-sdk`, `langchain`, `mcp`, `cli`, `library`, …). */
  gate: string;
  action: StoredDecision['record']['action'];
  risk_policy: { policy_id: string; version: string };
  /** Each consulted proposition's snapshot, warrant receipt digest, and `mayAct` on it alone with its rule. */
  consulted: { proposition_id: string; view_id: string; receipt_digest: string; may_act: string; rule: string }[];
  /** The recovery gate applied when it was decided (null: none applied). */
  recovery: RecoveryGate | null;
  /**
   * The recovery gate a later use of this decision meets now (re-running it, confirming it, deciding
   * its action again); `null` for a decision that was itself held (it is no baseline).
   */
  later_use: RecoveryGate | null;
  signed: boolean;
}

/** What the ledger records about re-checking one proposition: retractions, re-evaluation, recorded plans. */
export interface PropositionRecovery {
  proposition_id: string;
  /** Records of it explicitly retracted (`check:C-1`), and the chain index of the latest retraction. */
  retracted: string[];
  last_retraction_index: number | null;
  /** Its latest recorded re-evaluation. */
  reevaluation: { chain_index: number; view_id: string } | null;
  /**
   * What re-evaluating its newest snapshot would prove now, when records of it are retracted: ALLOW
   * lifts the holds, BLOCK means the snapshot still holds a retracted record. `null` when nothing of
   * it is retracted (not computed: re-verifying reads every record).
   */
  reevaluation_now: 'ALLOW' | 'REVIEW_REQUIRED' | 'BLOCK' | null;
  /** Recorded recovery plans (`ewp recover plan --record`) that found it changed, oldest first. */
  plans: { plan_id: string; chain_index: number; committed_at: string; reason: string | null; held: number }[];
}

/** `GET /api/decisions`: recorded decisions, oldest first, paged by chain index. */
export interface DecisionPage {
  /** Only decisions that consulted this proposition, or every decision. */
  proposition: string | null;
  /** Decisions after this chain index. */
  after: number | null;
  limit: number;
  /** The page's decisions; a decision too large for the page's byte bound is shortened and carries `truncated: true`. */
  items: DecisionRow[];
  has_more: boolean;
  /** The `after` of the next page: the chain index of the page's last decision; null on the last page. */
  next_cursor: number | null;
  /** The proposition's recovery state, when one is named. */
  recovery: PropositionRecovery | null;
}
