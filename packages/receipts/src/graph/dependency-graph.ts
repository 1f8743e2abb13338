import { sortedByCodePoint } from '@ewp/core';
import { GraphError } from '../errors.js';

/** What the graph reads from a node: its id and the ids it depends on (checkpoints fit). */
export interface GraphNode {
  checkpoint_id: string;
  depends_on: readonly string[];
}

/**
 * A validated dependency DAG of checkpoints (docs/spec/receipts.md §6). An edge runs from a prerequisite to each node
 * that lists it in `depends_on`. Everything is computed once at construction in O(N + E log W)
 * (W = widest ready set): index, children/parents adjacency and the deterministic topological order.
 *
 * Nodes are kept by reference and must not be mutated afterwards.
 */
export class DependencyGraph<T extends GraphNode = GraphNode> {
  /** Node ids in input order. */
  readonly #ids: string[];
  readonly #nodes: T[];
  readonly #index = new Map<string, number>();
  /** CSR adjacency: children of i are #childList[#childStart[i] .. #childStart[i+1]). */
  readonly #childStart: Int32Array;
  readonly #childList: Int32Array;
  readonly #parentStart: Int32Array;
  readonly #parentList: Int32Array;
  /** Node indices in topological order, and each node's position in it. */
  readonly #order: Int32Array;
  readonly #position: Int32Array;
  #orderIds: string[] | undefined;

  /**
   * @throws {GraphError} `DUPLICATE_ID`, `MISSING_DEPENDENCY` or `CYCLE` (checked in that order). A
   * dependency listed twice counts as a cycle, as in the reference.
   */
  constructor(nodes: Iterable<T>) {
    const list = [...nodes];
    const n = list.length;
    this.#nodes = list;
    // push, not `new Array(n)`: V8 gives large preallocated arrays slow dictionary elements.
    this.#ids = [];
    const index = this.#index;
    for (let i = 0; i < n; i++) {
      const id = (list[i] as T).checkpoint_id;
      if (index.has(id)) throw new GraphError('DUPLICATE_ID', `duplicate checkpoint id: ${id}`);
      index.set(id, i);
      this.#ids.push(id);
    }
    // In-degree counts every listed dependency; the edge set keeps each once (reference quirk).
    // Two passes over flat typed arrays: no per-node allocation, so a million nodes stay cheap.
    const indegree = new Int32Array(n);
    let listed = 0;
    for (let i = 0; i < n; i++) listed += (list[i] as T).depends_on.length;
    const resolved = new Int32Array(listed);
    this.#parentStart = new Int32Array(n + 1);
    const childCount = new Int32Array(n);
    let edges = 0;
    for (let i = 0; i < n; i++) {
      const node = list[i] as T;
      const deps = node.depends_on;
      indegree[i] = deps.length;
      const base = edges;
      let seen: Set<number> | undefined;
      for (let d = 0; d < deps.length; d++) {
        const dep = deps[d] as string;
        const p = index.get(dep);
        if (p === undefined) {
          throw new GraphError('MISSING_DEPENDENCY', `checkpoint ${node.checkpoint_id} depends on missing ${dep}`);
        }
        let duplicate = false;
        if (deps.length > 16) {
          seen ??= new Set<number>();
          duplicate = seen.has(p);
          seen.add(p);
        } else if (deps.length > 1) {
          for (let e = base; e < edges; e++) {
            if (resolved[e] === p) {
              duplicate = true;
              break;
            }
          }
        }
        if (!duplicate) {
          resolved[edges++] = p;
          childCount[p] = (childCount[p] as number) + 1;
        }
      }
      this.#parentStart[i + 1] = edges;
    }
    this.#parentList = resolved.slice(0, edges);
    this.#childStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.#childStart[i + 1] = (this.#childStart[i] as number) + (childCount[i] as number);
    this.#childList = new Int32Array(edges);
    const fill = this.#childStart.slice(0, n);
    for (let i = 0; i < n; i++) {
      for (let e = this.#parentStart[i] as number; e < (this.#parentStart[i + 1] as number); e++) {
        const p = this.#parentList[e] as number;
        this.#childList[fill[p] as number] = i;
        fill[p] = (fill[p] as number) + 1;
      }
    }
    this.#order = this.#kahn(indegree);
    this.#position = new Int32Array(n);
    for (let k = 0; k < n; k++) this.#position[this.#order[k] as number] = k;
  }

  /**
   * Kahn's algorithm, always taking the smallest ready id by code point (docs/spec/receipts.md §6.2). Ids are ranked
   * once with the engine's native sort, so the ready heap compares integers, not strings.
   */
  #kahn(indegree: Int32Array): Int32Array {
    const n = this.#ids.length;
    const byRank = new Int32Array(n);
    const rank = new Int32Array(n);
    const sorted = sortedByCodePoint([...this.#ids]);
    for (let r = 0; r < n; r++) {
      const i = this.#index.get(sorted[r] as string) as number;
      byRank[r] = i;
      rank[i] = r;
    }
    const heap = new RankHeap(n);
    for (let i = 0; i < n; i++) if (indegree[i] === 0) heap.push(rank[i] as number);
    const order = new Int32Array(n);
    let k = 0;
    while (heap.size > 0) {
      const u = byRank[heap.pop()] as number;
      order[k++] = u;
      for (let e = this.#childStart[u] as number; e < (this.#childStart[u + 1] as number); e++) {
        const c = this.#childList[e] as number;
        indegree[c] = (indegree[c] as number) - 1;
        if (indegree[c] === 0) heap.push(rank[c] as number);
      }
    }
    if (k !== n) throw new GraphError('CYCLE', 'dependency graph contains a cycle');
    return order;
  }

  /** Number of nodes. */
  get size(): number {
    return this.#ids.length;
  }

  /** All ids sorted by code point. */
  checkpointIds(): string[] {
    return sortedByCodePoint([...this.#ids]);
  }

  /** The lexicographically smallest topological order (by code point). */
  topologicalOrder(): string[] {
    this.#orderIds ??= Array.from(this.#order, (i) => this.#ids[i] as string);
    return [...this.#orderIds];
  }

  /** True when `id` is a node. */
  has(id: string): boolean {
    return this.#index.has(id);
  }

  /** The node with this id. @throws {GraphError} `UNKNOWN_CHECKPOINT` */
  get(id: string): T {
    return this.#nodes[this.indexOf(id)] as T;
  }

  /** Every node reachable from `id` (excluding it), in topological order. @throws {GraphError} */
  descendants(id: string): string[] {
    const mark = this.downstreamMarks([this.indexOf(id)]);
    mark[this.indexOf(id)] = 0;
    return this.idsInOrder(mark);
  }

  /** Every node `id` transitively depends on (excluding it), in topological order. @throws {GraphError} */
  ancestors(id: string): string[] {
    const i = this.indexOf(id);
    const mark = new Uint8Array(this.size);
    const stack = [i];
    while (stack.length > 0) {
      const u = stack.pop() as number;
      for (let e = this.#parentStart[u] as number; e < (this.#parentStart[u + 1] as number); e++) {
        const p = this.#parentList[e] as number;
        if (mark[p] === 0) {
          mark[p] = 1;
          stack.push(p);
        }
      }
    }
    return this.idsInOrder(mark);
  }

  /** The roots and everything downstream of them, in topological order. @throws {GraphError} */
  blastRadius(roots: Iterable<string>): string[] {
    const starts = [...roots].map((r) => this.indexOf(r));
    return this.idsInOrder(this.downstreamMarks(starts));
  }

  // ---- index-level access for planners in this package (not part of the stable API) ----

  /** @internal Node index of an id. @throws {GraphError} `UNKNOWN_CHECKPOINT` */
  indexOf(id: string): number {
    const i = this.#index.get(id);
    if (i === undefined) throw new GraphError('UNKNOWN_CHECKPOINT', `unknown checkpoint: ${id}`);
    return i;
  }

  /** @internal */
  idAt(i: number): string {
    return this.#ids[i] as string;
  }

  /** @internal */
  nodeAt(i: number): T {
    return this.#nodes[i] as T;
  }

  /** @internal Node indices in topological order (do not mutate). */
  orderIndices(): Int32Array {
    return this.#order;
  }

  /** @internal Topological position of each node index. */
  positions(): Int32Array {
    return this.#position;
  }

  /** @internal CSR parents. */
  parentsCsr(): { start: Int32Array; list: Int32Array } {
    return { start: this.#parentStart, list: this.#parentList };
  }

  /** @internal Marks (1) the start nodes and everything reachable from them. */
  downstreamMarks(starts: readonly number[]): Uint8Array {
    const mark = new Uint8Array(this.size);
    const stack: number[] = [];
    for (const s of starts) {
      if (mark[s] === 0) {
        mark[s] = 1;
        stack.push(s);
      }
    }
    while (stack.length > 0) {
      const u = stack.pop() as number;
      for (let e = this.#childStart[u] as number; e < (this.#childStart[u + 1] as number); e++) {
        const c = this.#childList[e] as number;
        if (mark[c] === 0) {
          mark[c] = 1;
          stack.push(c);
        }
      }
    }
    return mark;
  }

  /** @internal Ids of marked nodes in topological order. */
  idsInOrder(mark: Uint8Array): string[] {
    const out: string[] = [];
    for (let k = 0; k < this.#order.length; k++) {
      const i = this.#order[k] as number;
      if (mark[i] !== 0) out.push(this.#ids[i] as string);
    }
    return out;
  }
}

/** A binary min-heap of integers in a typed array (sift with a hole, no swaps). */
class RankHeap {
  readonly #a: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.#a = new Int32Array(Math.max(1, capacity));
  }
  push(x: number): void {
    const a = this.#a;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = a[p] as number;
      if (x >= parent) break;
      a[i] = parent;
      i = p;
    }
    a[i] = x;
  }
  pop(): number {
    const a = this.#a;
    const top = a[0] as number;
    const n = --this.size;
    if (n > 0) {
      const last = a[n] as number;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && (a[r] as number) < (a[l] as number) ? r : l;
        if ((a[m] as number) >= last) break;
        a[i] = a[m] as number;
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}
