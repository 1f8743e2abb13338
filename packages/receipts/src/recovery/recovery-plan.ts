import { compareCodePoints } from '@ewp/core';
import { verifyVerificationReceipt } from '../checkpoint/receipt-checks.js';
import type { RecoveryAction, VerificationResult } from '../checkpoint/verification.js';
import type { Checkpoint } from '../checkpoint/model.js';
import type { DependencyGraph, GraphNode } from '../graph/dependency-graph.js';

/** Why a checkpoint was invalidated (docs/spec/receipts.md §7.1); the wire values are these lowercase strings. */
export type InvalidationReason =
  | 'evidence_changed'
  | 'evidence_stale'
  | 'evidence_missing'
  | 'evidence_refuted'
  | 'policy_changed'
  | 'provenance_failed'
  | 'integrity_failed'
  | 'worker_failed'
  | 'explicit_manual_invalidation';

export const INVALIDATION_REASONS: readonly InvalidationReason[] = [
  'evidence_changed',
  'evidence_stale',
  'evidence_missing',
  'evidence_refuted',
  'policy_changed',
  'provenance_failed',
  'integrity_failed',
  'worker_failed',
  'explicit_manual_invalidation',
];

type MapLike<V> = ReadonlyMap<string, V> | Readonly<Record<string, V>>;

function entriesOf<V>(m: MapLike<V> | null | undefined): [string, V][] {
  if (m == null) return [];
  return m instanceof Map ? [...m.entries()] : Object.entries(m as Record<string, V>);
}

function lookup<V>(m: MapLike<V> | null | undefined, key: string): V | undefined {
  if (m == null) return undefined;
  if (m instanceof Map) return m.get(key);
  return Object.hasOwn(m, key) ? (m as Record<string, V>)[key] : undefined;
}

/** Options of {@link planRecovery}. */
export interface PlanRecoveryOptions {
  /**
   * Decides whether a result is bound to its graph node. Default: `verifyVerificationReceipt(result,
   * node)` (three digests per result). A caller that issued the results itself for frozen checkpoints
   * (like {@link EvidenceBound}) may pass a cheaper proof of the same fact.
   */
  isBound?: (result: VerificationResult, node: GraphNode, id: string) => boolean;
}

/**
 * The answer of {@link planRecovery} (docs/spec/receipts.md §7.1): what must be recomputed, what is proven reusable,
 * and which re-evaluations each node needs. Lists are in topological order.
 *
 * `reverification_requirements` is Θ(k²) entries for a chain of k affected nodes, so it is computed
 * per node on demand ({@link RecoveryPlan.requirementsFor}); the property and `toJSON()` materialize it.
 */
export class RecoveryPlan {
  readonly invalidated: string[];
  readonly recompute: string[];
  readonly reusable: string[];
  readonly requires_verification: string[];
  readonly blocked: string[];
  /** Reason text per non-reusable node index (only those entries are set). */
  readonly #reasonAt: Map<number, string>;
  #reasons: Record<string, string> | undefined;
  readonly #graph: DependencyGraph<GraphNode>;
  /** 1 = non-reusable (affected or requires verification). */
  readonly #nonReusable: Uint8Array;
  #stamp: Int32Array | undefined;
  #stampValue = 0;

  /** @internal built by {@link planRecovery}. */
  constructor(
    graph: DependencyGraph<GraphNode>,
    lists: {
      invalidated: string[];
      reusable: string[];
      requires_verification: string[];
      blocked: string[];
      reasonAt: Map<number, string>;
    },
    nonReusable: Uint8Array,
  ) {
    this.#graph = graph;
    this.invalidated = lists.invalidated;
    this.recompute = [...lists.invalidated];
    this.reusable = lists.reusable;
    this.requires_verification = lists.requires_verification;
    this.blocked = lists.blocked;
    this.#reasonAt = lists.reasonAt;
    this.#nonReusable = nonReusable;
  }

  /**
   * Reason per non-reusable node (docs/spec/receipts.md §7.1; compare as a map): the invalidation reason,
   * `depends_on_invalidated:<roots>` or `verification_<…>`. Materialized on first access.
   */
  get reasons(): Record<string, string> {
    if (this.#reasons === undefined) {
      const out: Record<string, string> = Object.create(null);
      for (const [i, text] of this.#reasonAt) out[this.#graph.idAt(i)] = text;
      this.#reasons = out;
    }
    return this.#reasons;
  }

  /** The reason of one node, or undefined when it is reusable or unknown. */
  reasonFor(id: string): string | undefined {
    return this.#graph.has(id) ? this.#reasonAt.get(this.#graph.indexOf(id)) : undefined;
  }

  /** True when `id` is proven reusable. */
  isReusable(id: string): boolean {
    return this.#graph.has(id) && this.#nonReusable[this.#graph.indexOf(id)] === 0;
  }

  /**
   * The path-specific re-evaluations node `id` needs: `(ancestors(id) ∪ {id}) ∩ non-reusable`, in
   * topological order; `undefined` when `id` is reusable or not in the graph. O(ancestors of id).
   */
  requirementsFor(id: string): string[] | undefined {
    const g = this.#graph;
    if (!g.has(id)) return undefined;
    const start = g.indexOf(id);
    if (this.#nonReusable[start] === 0) return undefined;
    const { start: ps, list: pl } = g.parentsCsr();
    this.#stamp ??= new Int32Array(g.size);
    const stamp = this.#stamp;
    const s = ++this.#stampValue;
    const found: number[] = [start];
    const stack = [start];
    stamp[start] = s;
    while (stack.length > 0) {
      const u = stack.pop() as number;
      for (let e = ps[u] as number; e < (ps[u + 1] as number); e++) {
        const p = pl[e] as number;
        if (stamp[p] !== s) {
          stamp[p] = s;
          stack.push(p);
          if (this.#nonReusable[p] === 1) found.push(p);
        }
      }
    }
    const pos = g.positions();
    found.sort((a, b) => (pos[a] as number) - (pos[b] as number));
    return found.map((i) => g.idAt(i));
  }

  /** Every non-reusable node's requirements, materialized (quadratic for long chains). */
  get reverification_requirements(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const i of this.#graph.orderIndices()) {
      if (this.#nonReusable[i] === 1) {
        const id = this.#graph.idAt(i);
        out[id] = this.requirementsFor(id) as string[];
      }
    }
    return out;
  }

  /** The reference's serialized plan. */
  toJSON(): Record<string, unknown> {
    return {
      invalidated: this.invalidated,
      recompute: this.recompute,
      reusable: this.reusable,
      requires_verification: this.requires_verification,
      blocked: this.blocked,
      reasons: this.reasons,
      reverification_requirements: this.reverification_requirements,
    };
  }
}

/**
 * Plans selective recovery after invalidations (docs/spec/receipts.md §7.1), in O(N + E) plus the size of the reasons
 * (each affected node lists the invalidated roots it descends from).
 *
 * A node is reusable only with proof: unaffected, and a result bound to its exact payload says ALLOW.
 * @param invalidations checkpoint id → reason.
 * @param verification checkpoint id → the latest verification result.
 * @param consequential ids whose progress must wait for reuse proof; unknown ids are ignored.
 * @throws {GraphError} `UNKNOWN_CHECKPOINT` for an invalidation key not in the graph.
 */
export function planRecovery<T extends GraphNode>(
  graph: DependencyGraph<T>,
  invalidations: MapLike<InvalidationReason | string>,
  verification?: MapLike<VerificationResult> | null,
  consequential?: Iterable<string> | null,
  options: PlanRecoveryOptions = {},
): RecoveryPlan {
  const g = graph as unknown as DependencyGraph<GraphNode>;
  const n = g.size;
  const invalid = entriesOf(invalidations);
  const rootReason = new Map<number, string>();
  for (const [id, reason] of invalid) rootReason.set(g.indexOf(id), reason);
  const affected = g.downstreamMarks([...rootReason.keys()]);
  const isBound = options.isBound ?? ((result: VerificationResult, node: GraphNode) => verifyVerificationReceipt(result, node as Checkpoint));
  const consequentialSet = new Set(consequential ?? []);

  const order = g.orderIndices();
  const { start: ps, list: pl } = g.parentsCsr();
  // Invalidated roots each affected node descends from: propagated in topological order, with
  // arrays shared whenever a node inherits exactly one parent's set.
  // Filled as nodes are visited in topological order; a Map avoids V8's slow dictionary elements
  // for large preallocated arrays.
  const rootsOf = new Map<number, number[]>();
  const reasonText = new Map<number[], string>();
  const pos = g.positions();

  const invalidated: string[] = [];
  const reusable: string[] = [];
  const requiresVerification: string[] = [];
  const blocked: string[] = [];
  const reasonAt = new Map<number, string>();
  const nonReusable = new Uint8Array(n);

  for (let k = 0; k < n; k++) {
    const i = order[k] as number;
    const id = g.idAt(i);
    if (affected[i] === 1) {
      nonReusable[i] = 1;
      invalidated.push(id);
      let roots: number[] | undefined;
      for (let e = ps[i] as number; e < (ps[i + 1] as number); e++) {
        const p = pl[e] as number;
        if (affected[p] === 0) continue;
        let contribution = rootsOf.get(p) as number[];
        if (rootReason.has(p)) contribution = mergeSorted(contribution, [p], pos);
        if (roots === undefined) roots = contribution;
        else if (roots !== contribution) {
          roots = mergeSorted(roots, contribution, pos);
        }
      }
      rootsOf.set(i, roots ?? EMPTY);
      const own = rootReason.get(i);
      reasonAt.set(i, own !== undefined ? own : dependsOnText(rootsOf.get(i) as number[], g, reasonText));
    } else {
      const result = lookup(verification, id);
      let why: string | null;
      if (result === undefined || result === null) why = 'verification_missing';
      else if (result.checkpoint_id !== id || !safeBound(isBound, result, g.nodeAt(i), id)) {
        why = 'verification_binding_invalid';
      } else if (result.action === 'ALLOW') why = null;
      else why = `verification_${String(result.action).toLowerCase()}`;
      if (why === null) reusable.push(id);
      else {
        nonReusable[i] = 1;
        requiresVerification.push(id);
        reasonAt.set(i, why);
      }
    }
    if (nonReusable[i] === 1 && consequentialSet.has(id)) blocked.push(id);
  }
  return new RecoveryPlan(g, { invalidated, reusable, requires_verification: requiresVerification, blocked, reasonAt }, nonReusable);
}

const EMPTY: number[] = [];

function safeBound(isBound: NonNullable<PlanRecoveryOptions['isBound']>, result: VerificationResult, node: GraphNode, id: string): boolean {
  try {
    return isBound(result, node, id);
  } catch {
    return false; // a result that cannot even be checked proves nothing
  }
}

/** Union of two sets of node indices kept sorted by topological position (deduplicated). */
function mergeSorted(a: number[], b: number[], pos: Int32Array): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (pos[a[i] as number] as number) < (pos[b[j] as number] as number))) {
      out.push(a[i++] as number);
    } else if (i >= a.length || (pos[b[j] as number] as number) < (pos[a[i] as number] as number)) {
      out.push(b[j++] as number);
    } else {
      out.push(a[i++] as number);
      j++;
    }
  }
  return out;
}

function dependsOnText(roots: number[], g: DependencyGraph<GraphNode>, cache: Map<number[], string>): string {
  let text = cache.get(roots);
  if (text === undefined) {
    const ids = roots.map((r) => g.idAt(r)).sort(compareCodePoints);
    text = `depends_on_invalidated:${ids.join(',')}`;
    cache.set(roots, text);
  }
  return text;
}

/**
 * May node `id` proceed after recovery (docs/spec/receipts.md §7.2)? ALLOW when it is reusable, or when every
 * required re-evaluation maps in `reverified` to a result for that very id whose action is ALLOW;
 * otherwise (including ids outside the plan) BLOCK. Like the reference, the reverified results'
 * receipts are not re-checked here: pass only results from `verifyCheckpoint` on the current node.
 */
export function actionAfterRecovery(id: string, plan: RecoveryPlan, reverified: MapLike<VerificationResult> | null | undefined): RecoveryAction {
  if (plan.isReusable(id)) return 'ALLOW';
  const required = plan.requirementsFor(id);
  if (required === undefined) return 'BLOCK';
  for (const r of required) {
    const result = lookup(reverified, r);
    if (result == null || result.checkpoint_id !== r || result.action !== 'ALLOW') return 'BLOCK';
  }
  return 'ALLOW';
}
