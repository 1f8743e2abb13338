/**
 * The action gate for every risk × reversibility under the risk policy, the rule that decided each
 * cell, and what would change it. "What would change it" is searched, not written down: each
 * candidate change of evidence is applied to the view, the result goes through the real warrantNow
 * and gateRuleFor (@ewp/core), and the smallest sets of changes that lift a decision are kept.
 */
import {
  AXIS_VALUES,
  type Decision,
  DECISIONS,
  type EvidenceView,
  type GateRule,
  gateRuleFor,
  HUMAN_METHODS,
  EXTERNAL_METHODS,
  REFERENCE_V2,
  RISKS,
  type Risk,
  type RiskPolicy,
  type SourceRef,
  TRUSTED_ORIGINS,
  type WarrantView,
  warrantNow,
} from '@ewp/core';
import { axisOfCode, explainCode } from './explain.js';
import { durationWords } from './time.js';

export { RISKS };
const REVERSIBILITY: readonly boolean[] = [true, false];
/** Decisions ranked by the kernel's own order (DENY least permissive). */
const RANK = Object.fromEntries(DECISIONS.map((d, rank) => [d, rank])) as Record<Decision, number>;

/** A change to the evidence an operator could make, applied to a copy of the view. */
export interface Intervention {
  id: string;
  /** What to do, in words. */
  label: string;
  apply(view: EvidenceView): EvidenceView;
}

/** A smallest set of changes that lifts a cell to `reaches`. */
export interface Route {
  reaches: Decision;
  steps: Intervention[];
}

export interface GateCell {
  risk: Risk;
  reversible: boolean;
  decision: Decision;
  rule: GateRule;
  /** Empty for MAY_ACT, and when no set of the candidate changes lifts it. */
  routes: Route[];
  /** When a blocked cell has no route after the search: why nothing within reach lifts it. */
  why?: string;
}

function source(id: string, origin: string, at: string): SourceRef {
  return {
    source_id: id,
    lineage_id: id,
    origin_type: origin,
    origin_locator: 'counterfactual',
    snapshot_id: id,
    content_hash: 'counterfactual',
    observed_at: at,
    extractor_id: null,
    parent_source_id: null,
  };
}

// Pick a method and origin from the policy tables themselves, never a literal of our own.
const firstOf = (set: ReadonlySet<string>) => [...set][0] as string;

/** The candidate changes for this view at T. */
export function interventionsFor(view: EvidenceView, w: WarrantView, at: string): Intervention[] {
  const subjects = view.subjects.length === 0 ? 'no subjects (as the view)' : `subject ${view.subjects.join(', ')}`;
  const window = durationWords(view.freshness_policy_seconds);
  const check =
    (id: string, method: string, origin: string) =>
    (v: EvidenceView): EvidenceView => ({
      ...v,
      checks: [
        ...v.checks,
        { check_id: id, method, scope: 'counterfactual', subjects: v.subjects.slice(), result: 'supports', observed_at: at, source: source(id, origin, at) },
      ],
    });
  const out: Intervention[] = [
    {
      id: 'external-check',
      label: `a supporting EXTERNAL check (e.g. ${firstOf(EXTERNAL_METHODS)}) from a trusted origin (${[...TRUSTED_ORIGINS].join(', ')}) on ${subjects}, observed within the freshness window (${window}) before T`,
      apply: check('counterfactual-external', firstOf(EXTERNAL_METHODS), firstOf(TRUSTED_ORIGINS)),
    },
    {
      id: 'human-check',
      label: `a supporting HUMAN attestation (${[...HUMAN_METHODS].join(' or ')}) from a trusted origin on ${subjects}, within the freshness window (${window}) before T`,
      apply: check('counterfactual-human', firstOf(HUMAN_METHODS), firstOf(TRUSTED_ORIGINS)),
    },
  ];
  if (w.warrant.acceptance === 'UNACCEPTED') {
    out.push({
      id: 'assertion',
      label: 'an assertion of the proposition, available at T',
      apply: (v) => ({
        ...v,
        assertions: [
          ...v.assertions,
          {
            assertion_id: 'counterfactual-assertion',
            proposition_id: v.proposition_id,
            text: 'counterfactual',
            asserted_by: 'counterfactual',
            assertion_confidence: 1,
            asserted_at: at,
            source: source('counterfactual-assertion', 'document', at),
          },
        ],
      }),
    });
  }
  // Withdrawing a record (a new snapshot without it) is a real operator change when the record was
  // wrong: offered for the records that hold the decision down (an opposing record, and when the
  // polarities conflict, the supporting ones), labelled so nobody mistakes it for new evidence.
  const opposing = [...opposingRecords(view)].slice(0, MAX_WITHDRAW);
  const conflicted = w.warrant.rationale_codes.includes('conflict.implied_polarity');
  const supporting = conflicted ? [...supportingRecords(view)].slice(0, MAX_WITHDRAW) : [];
  for (const r of [...opposing, ...supporting]) {
    out.push({
      id: `withdraw:${r.kind}:${r.id}`,
      label: `withdraw ${r.kind} ${r.id} (it ${r.stance} the proposition): a new snapshot without it, only if that record was wrong`,
      apply: (v) =>
        r.kind === 'check'
          ? { ...v, checks: v.checks.filter((c) => c.check_id !== r.id) }
          : { ...v, evidence: v.evidence.filter((e) => e.evidence_id !== r.id) },
    });
  }
  for (const id of w.open_conflicts.slice(0, 4)) {
    out.push({
      id: `resolve:${id}`,
      label: `resolve conflict ${id}`,
      apply: (v) => ({ ...v, conflicts: v.conflicts.map((c) => (c.conflict_id === id ? { ...c, status: 'resolved' } : c)) }),
    });
  }
  if (w.warrant.sufficiency === 'DEGRADED') {
    out.push({
      id: 'complete-retrieval',
      label: 'a complete retrieval: no omitted sources, scope "complete", not marked degraded',
      apply: (v) => ({ ...v, degraded: false, omitted_sources: [], retrieval_scope: 'complete' }),
    });
  }
  return out;
}

/** Records offered for withdrawal, per side of the proposition. */
const MAX_WITHDRAW = 3;

interface StancedRecord {
  kind: 'check' | 'evidence';
  id: string;
  stance: 'supports' | 'opposes';
}

function* opposingRecords(view: EvidenceView): Generator<StancedRecord> {
  for (const c of view.checks) if (c.result === 'opposes') yield { kind: 'check', id: c.check_id, stance: 'opposes' };
  for (const e of view.evidence) if (e.polarity === 'opposes') yield { kind: 'evidence', id: e.evidence_id, stance: 'opposes' };
}

function* supportingRecords(view: EvidenceView): Generator<StancedRecord> {
  for (const e of view.evidence) if (e.polarity === 'supports') yield { kind: 'evidence', id: e.evidence_id, stance: 'supports' };
  for (const c of view.checks) if (c.result === 'supports') yield { kind: 'check', id: c.check_id, stance: 'supports' };
}

/** Subsets of `n` items by increasing size, up to `max` items (bit masks). */
function subsetsBySize(n: number, max: number): number[] {
  const masks: number[] = [];
  for (let m = 1; m < 1 << n; m++) masks.push(m);
  const size = (m: number) => {
    let c = 0;
    for (let x = m; x; x &= x - 1) c++;
    return c;
  };
  return masks.filter((m) => size(m) <= max).sort((a, b) => size(a) - size(b) || a - b);
}

/** The gate's decision and rule for each risk × reversibility, without the search. */
export function gateCells(w: WarrantView, riskPolicy: RiskPolicy): GateCell[] {
  const cells: GateCell[] = [];
  for (const risk of RISKS) {
    for (const reversible of REVERSIBILITY) {
      const rule = gateRuleFor(w, { action_id: 'inspect', kind: 'inspect', risk, reversible }, riskPolicy);
      cells.push({ risk, reversible, decision: rule.decision, rule, routes: [] });
    }
  }
  return cells;
}

/**
 * Fill each blocked cell's routes: the smallest sets (up to `maxSteps` changes) that lift it to
 * MAY_ACT, and for a DENY also to REQUIRE_CONFIRMATION when that takes fewer changes.
 */
export function searchRoutes(view: EvidenceView, w: WarrantView, at: string, riskPolicy: RiskPolicy, cells: GateCell[], maxSteps = 3): GateCell[] {
  const interventions = interventionsFor(view, w, at);
  const blocked = cells.filter((c) => c.decision !== 'MAY_ACT');
  if (blocked.length === 0) return cells;
  const found = new Map<GateCell, { mask: number; reaches: Decision }[]>(blocked.map((c) => [c, []]));
  for (const mask of subsetsBySize(interventions.length, maxSteps)) {
    let changed = view;
    for (let i = 0; i < interventions.length; i++) if (mask & (1 << i)) changed = (interventions[i] as Intervention).apply(changed);
    let counterfactual: WarrantView;
    try {
      counterfactual = warrantNow(changed, REFERENCE_V2, at);
    } catch {
      continue;
    }
    for (const cell of blocked) {
      const decision = gateRuleFor(
        counterfactual,
        { action_id: 'inspect', kind: 'inspect', risk: cell.risk, reversible: cell.reversible },
        riskPolicy,
      ).decision;
      if (RANK[decision] <= RANK[cell.decision]) continue;
      const routes = found.get(cell) as { mask: number; reaches: Decision }[];
      // Keep only smallest sets: a superset of a route that reaches as far adds nothing.
      if (routes.some((r) => (r.mask & mask) === r.mask && RANK[r.reaches] >= RANK[decision])) continue;
      routes.push({ mask, reaches: decision });
    }
  }
  return cells.map((cell) => {
    const routes = found.get(cell);
    if (routes === undefined) return cell;
    if (routes.length === 0) return { ...cell, why: whyNothingLifts(view, w, at, riskPolicy, cell, interventions.length, maxSteps) };
    return {
      ...cell,
      routes: routes.map((r) => ({ reaches: r.reaches, steps: interventions.filter((_, i) => r.mask & (1 << i)) })),
    };
  });
}

/**
 * The axes a gate rule reads, found by asking the rule itself: an axis counts when some other value
 * of it changes whether the rule applies. No second copy of the rule table.
 */
export function axesReadBy(rule: GateRule, w: WarrantView, cell: Pick<GateCell, 'risk' | 'reversible'>, riskPolicy: RiskPolicy): string[] {
  const situation = (warrant: WarrantView['warrant']) => ({
    warrant,
    risk: cell.risk,
    reversible: cell.reversible,
    highRequiresAccepted: riskPolicy.high_requires_accepted ?? true,
    highRequiresNoOpenConflict: riskPolicy.high_requires_no_open_conflict ?? true,
  });
  const applies = rule.applies(situation(w.warrant));
  return Object.entries(AXIS_VALUES)
    .filter(([axis, values]) => values.some((value: string) => rule.applies(situation({ ...w.warrant, [axis]: value })) !== applies))
    .map(([axis]) => axis);
}

/**
 * Why no set of the candidate changes lifts a blocked cell: the facts of this view behind every axis
 * the deciding rule reads (the kernel's rationale codes, with the records that caused them).
 */
function whyNothingLifts(view: EvidenceView, w: WarrantView, at: string, riskPolicy: RiskPolicy, cell: GateCell, candidates: number, maxSteps: number): string {
  const axes = new Set(axesReadBy(cell.rule, w, cell, riskPolicy));
  // Acceptance is decided from verification too: its codes explain a held-down acceptance.
  if (axes.has('acceptance')) axes.add('verification');
  const facts = w.warrant.rationale_codes.filter((code) => axes.has(axisOfCode(code))).map((code) => explainCode(code, w, view, at));
  const permanent =
    w.warrant.currency === 'SUPERSEDED' && axes.has('currency') ? ' A supersession is permanent: act on the proposition that supersedes it.' : '';
  return `None of the ${candidates} candidate changes, alone or up to ${maxSteps} together, lifts ${cell.decision}: rule ${cell.rule.id} reads ${[...axes].join(', ')}. ${facts.join(' ')}${permanent}`;
}
