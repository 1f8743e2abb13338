import type { EvidenceView, LineageEdge } from '@ewp/core';
import { namesProposition } from '@ewp/core';
import type { VerificationResult } from '../checkpoint/verification.js';
import { GraphError } from '../errors.js';
import { DependencyGraph, type GraphNode } from '../graph/dependency-graph.js';
import { type InvalidationReason, type PlanRecoveryOptions, type RecoveryPlan, planRecovery } from '../recovery/recovery-plan.js';

/** Graph node id of a proposition (docs/spec/receipts.md §12.5). */
export const propositionNode = (propositionId: string): string => `prop:${propositionId}`;
/** Graph node id of a gated action. */
export const actionNode = (actionId: string): string => `act:${actionId}`;

/** A proposition and the propositions it was derived from. */
export interface PropositionLineage {
  proposition_id: string;
  derived_from: readonly string[];
}

/** An action gated on the warrants of some propositions. */
export interface GatedAction {
  action_id: string;
  /** Propositions whose warrant the action's `mayAct` decision used. */
  uses: readonly string[];
}

/** A lineage edge that did not become a graph edge, and why (reported, never dropped silently). */
export interface IgnoredLineageEdge {
  proposition_id: string;
  edge: LineageEdge;
  why: 'not_derived_from' | 'from_other_record' | 'unknown_target';
}

/**
 * Proposition-level lineage from the latest views (docs/spec/receipts.md §12.5): an edge `{from_id: X, to_id: Y, kind:
 * derived_from}` of P's view with X naming P (P or `P:<suffix>`) and Y naming a known proposition
 * makes P depend on that proposition. Record-level, `parent_source`, supersession and dangling edges
 * are reported in `ignored`.
 */
export function lineageFromViews(views: Iterable<EvidenceView>): { lineage: PropositionLineage[]; ignored: IgnoredLineageEdge[] } {
  const list = [...views];
  const known = new Set(list.map((v) => v.proposition_id));
  const resolve = (id: string): string | undefined => {
    if (known.has(id)) return id;
    // `P:<suffix>` names P: try the longest known prefix ending before a ':'.
    for (let i = id.lastIndexOf(':'); i > 0; i = id.lastIndexOf(':', i - 1)) {
      const prefix = id.slice(0, i);
      if (known.has(prefix) && namesProposition(id, prefix)) return prefix;
    }
    return undefined;
  };
  const lineage: PropositionLineage[] = [];
  const ignored: IgnoredLineageEdge[] = [];
  for (const view of list) {
    const deps = new Set<string>();
    for (const edge of view.lineage) {
      const pid = view.proposition_id;
      if (edge.kind !== 'derived_from') ignored.push({ proposition_id: pid, edge, why: 'not_derived_from' });
      else if (!namesProposition(edge.from_id, pid)) ignored.push({ proposition_id: pid, edge, why: 'from_other_record' });
      else {
        const target = resolve(edge.to_id);
        if (target === undefined) ignored.push({ proposition_id: pid, edge, why: 'unknown_target' });
        else deps.add(target);
      }
    }
    lineage.push({ proposition_id: view.proposition_id, derived_from: [...deps] });
  }
  return { lineage, ignored };
}

/** What to re-evaluate after some propositions' evidence changed. */
export interface ReevaluationPlan {
  /** Propositions to re-run `warrantNow` on: the changed ones and everything derived from them, in dependency order. */
  propositions: string[];
  /** Gated actions whose `mayAct` decision must be re-made. */
  actions: string[];
  /** Propositions no changed proposition reaches: their warrants are structurally unaffected. */
  unaffected_propositions: string[];
  /** Actions none of whose propositions are affected. */
  unaffected_actions: string[];
  /**
   * Nodes proven reusable (unaffected and holding a bound ALLOW result), when `verification` was
   * given; otherwise empty. Node ids are `prop:<id>` / `act:<id>`.
   */
  reusable: string[];
  /** The underlying recovery plan over `prop:` / `act:` nodes (reasons, path-specific requirements, blocked actions). */
  recovery: RecoveryPlan;
}

/**
 * Lineage-driven re-evaluation (docs/spec/receipts.md §12.5): builds the proposition graph (plus action nodes), marks
 * the changed propositions as invalidated and plans recovery in O(N + E). Every action node is
 * consequential, so `recovery.blocked` lists the actions that must wait.
 * @param changed proposition id → reason (default `evidence_changed`), or a list of proposition ids.
 * @throws {GraphError} `CYCLE` for cyclic lineage (surface it as invalid lineage), `UNKNOWN_CHECKPOINT`
 * for a changed proposition that is not in the lineage.
 */
export function planReevaluation(input: {
  lineage: Iterable<PropositionLineage>;
  changed: Iterable<string> | ReadonlyMap<string, InvalidationReason>;
  actions?: Iterable<GatedAction>;
  /** Node id (`prop:…` / `act:…`) → latest verification result, to prove reuse. */
  verification?: ReadonlyMap<string, VerificationResult> | Readonly<Record<string, VerificationResult>>;
  isBound?: PlanRecoveryOptions['isBound'];
}): ReevaluationPlan {
  const nodes: GraphNode[] = [];
  const propositions = new Set<string>();
  for (const p of input.lineage) {
    propositions.add(p.proposition_id);
    nodes.push({ checkpoint_id: propositionNode(p.proposition_id), depends_on: [...new Set(p.derived_from)].map(propositionNode) });
  }
  const actionIds: string[] = [];
  for (const a of input.actions ?? []) {
    actionIds.push(actionNode(a.action_id));
    nodes.push({ checkpoint_id: actionNode(a.action_id), depends_on: [...new Set(a.uses)].map(propositionNode) });
  }
  const graph = new DependencyGraph(nodes);
  const invalidations = new Map<string, string>();
  const changed =
    input.changed instanceof Map ? [...input.changed.entries()] : [...(input.changed as Iterable<string>)].map((id) => [id, 'evidence_changed'] as const);
  for (const [pid, reason] of changed) {
    if (!propositions.has(pid)) throw new GraphError('UNKNOWN_CHECKPOINT', `unknown checkpoint: ${propositionNode(pid)}`);
    invalidations.set(propositionNode(pid), reason);
  }
  const recovery = planRecovery(graph, invalidations, input.verification ?? null, actionIds, {
    isBound: input.isBound,
  });
  const affected = new Set(recovery.invalidated);
  const split = (prefix: string, inAffected: boolean) =>
    graph
      .topologicalOrder()
      .filter((id) => id.startsWith(prefix) && affected.has(id) === inAffected)
      .map((id) => id.slice(prefix.length));
  return {
    propositions: split('prop:', true),
    actions: split('act:', true),
    unaffected_propositions: split('prop:', false),
    unaffected_actions: split('act:', false),
    reusable: input.verification === undefined ? [] : recovery.reusable,
    recovery,
  };
}

/**
 * What {@link planReevaluationFromStore} reads from a store: the structural subset of
 * `@ewp/ledger`'s EvidenceStore (this package cannot depend on the ledger, which depends on it).
 */
export interface LatestViewSource {
  listPropositions(query?: { limit?: number }): Promise<{ proposition_id: string }[]>;
  get(propositionId: string): Promise<EvidenceView | undefined>;
}

/**
 * {@link planReevaluation} over a store's latest snapshots: reads every proposition's latest view,
 * derives the lineage, and plans. Lineage edges that did not become graph edges are returned.
 * @throws {GraphError} for cyclic lineage or a changed proposition the store does not hold.
 */
export async function planReevaluationFromStore(
  store: LatestViewSource,
  changed: Iterable<string> | ReadonlyMap<string, InvalidationReason>,
  options: Omit<Parameters<typeof planReevaluation>[0], 'lineage' | 'changed'> = {},
): Promise<ReevaluationPlan & { ignored: IgnoredLineageEdge[] }> {
  const summaries = await store.listPropositions({ limit: Number.MAX_SAFE_INTEGER });
  const views: EvidenceView[] = [];
  for (const s of summaries) {
    const view = await store.get(s.proposition_id);
    if (view !== undefined) views.push(view);
  }
  const { lineage, ignored } = lineageFromViews(views);
  return { ...planReevaluation({ ...options, lineage, changed }), ignored };
}
