/**
 * WarrantedStore: a LangGraph BaseStore that wraps another one. Agent memories pass through
 * unchanged; each write is also recorded as an endogenous assertion in an EWP ledger kept in
 * the same inner store, and every item read back carries its proposition's warrant at the time
 * of the read.
 */
import { type Assertion, decodeView, emptyView, type EvidenceView, InvalidArgumentError, type Policy, REFERENCE_V2, warrantNow } from '@ewp/core';
import { MissingViewError } from '@ewp/ledger';
import { latestWarrant } from '@ewp/tools';
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from '@langchain/langgraph';
import { BaseStoreLedger } from '../ledger/base-store-ledger.js';
import { ReservedNamespaceError } from '../ledger/reserved-namespace-error.js';
import { itemWriteLock } from '../ledger/write-lock.js';
import { defaultItemProposition, defaultItemText, itemAssertion, itemLocator, type MemoryOrigin } from './item-assertion.js';
import { searchSnapshot } from './snapshot-search.js';
import { type Warrant, warrantOf } from '../warrant.js';

/** A stored item plus the warrant of the proposition it asserts, evaluated at read time. */
export type WarrantedItem = Item & { warrant: Warrant };
/** A search hit plus its proposition's warrant (DEGRADED when `limit` cut the result). */
export type WarrantedSearchItem = WarrantedItem & { score?: number };

export interface WarrantedStoreOptions {
  /** Namespace root that holds EWP records (default `ewp`). Agent writes under it are refused. */
  namespaceRoot?: string;
  /** Origin recorded for plain items (default `turn`). Endogenous: it never verifies. */
  origin?: MemoryOrigin;
  /** `asserted_by` of item assertions (default `langgraph.store`). */
  assertedBy?: string;
  /** Which proposition an item asserts. Default: its `proposition_id` field, else its path. */
  propositionOf?: (namespace: string[], key: string, value: Record<string, unknown>) => string;
  /** The memory text of an item. Default: `text`/`content`/`memory`/`data`, else the JSON. */
  textOf?: (value: Record<string, unknown>) => string;
  /** The clock: write times and evaluation time T. Default `() => new Date()`. */
  now?: () => Date;
  /** Whether the inner store is persistent (reported in `ledger.capabilities`). */
  persistent?: boolean;
}

const UNRECORDED_SCOPE = 'langgraph.unrecorded';
const SEARCH_SCOPE = 'langgraph.search';

/**
 * A LangGraph `BaseStore` over any other BaseStore, with EWP evidence and warrant.
 *
 * - `put` first commits a new ledger snapshot of the item's proposition in which this item path
 *   contributes exactly one assertion (its current content) from origin `turn` or `extract`,
 *   then stores the item in the inner store; `delete` removes that contribution, then the item.
 * - `get`/`search` return the items with `warrant`: the proposition's warrant at call time (camelCase).
 *   A search whose result was cut by `limit` evaluates DEGRADED views (`#search`).
 * - `ledger` is the EvidenceStore holding full EWP snapshots (lossless) under `ewp`.
 */
export class WarrantedStore extends BaseStore {
  readonly inner: BaseStore;
  readonly ledger: BaseStoreLedger;
  readonly #origin: MemoryOrigin;
  readonly #assertedBy: string;
  readonly #propositionOf: (namespace: string[], key: string, value: Record<string, unknown>) => string;
  readonly #textOf: (value: Record<string, unknown>) => string;
  readonly #now: () => Date;
  readonly #policy: Policy = REFERENCE_V2;

  constructor(inner: BaseStore, options: WarrantedStoreOptions = {}) {
    super();
    if (options.origin !== undefined && options.origin !== 'turn' && options.origin !== 'extract') {
      throw new InvalidArgumentError('origin', `must be "turn" or "extract", got ${JSON.stringify(options.origin)}`);
    }
    this.inner = inner;
    this.ledger = new BaseStoreLedger(inner, { namespaceRoot: options.namespaceRoot, persistent: options.persistent });
    this.#origin = options.origin ?? 'turn';
    this.#assertedBy = options.assertedBy ?? 'langgraph.store';
    this.#propositionOf = options.propositionOf ?? defaultItemProposition;
    this.#textOf = options.textOf ?? defaultItemText;
    this.#now = options.now ?? (() => new Date());
  }

  /** The warrant of `propositionId` now (or at `evaluatedAt`); `undefined` when nothing is recorded. */
  async warrantOf(propositionId: string, evaluatedAt?: string): Promise<Warrant | undefined> {
    const w = await latestWarrant(this.ledger, propositionId, evaluatedAt ?? this.#now().toISOString(), this.#policy);
    return w === undefined ? undefined : warrantOf(w, { cut: false, unrecorded: false });
  }

  /** The item at `namespace`/`key` with its proposition's warrant now, or `null`. */
  override async get(namespace: string[], key: string): Promise<WarrantedItem | null> {
    return (await super.get(namespace, key)) as WarrantedItem | null;
  }

  /** Items under `namespacePrefix`, each with its proposition's warrant now (DEGRADED when `limit` cut the result). */
  override async search(
    namespacePrefix: string[],
    options?: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string },
  ): Promise<WarrantedSearchItem[]> {
    return (await super.search(namespacePrefix, options)) as WarrantedSearchItem[];
  }

  /**
   * Search the records of one stored snapshot of `propositionId` (latest, or `viewId`): at most
   * `limit` assertions and evidence items, DEGRADED with the rest in `omitted_sources` when the
   * snapshot held more. Missing proposition or snapshot → `MissingViewError`.
   */
  async searchView(propositionId: string, query: string, options: { limit?: number; viewId?: string } = {}): Promise<EvidenceView> {
    const view = await this.ledger.get(propositionId, options.viewId);
    if (view === undefined) throw new MissingViewError(propositionId, options.viewId);
    return searchSnapshot(view, query, options.limit ?? 10);
  }

  /**
   * The items under `namespacePrefix` that assert `propositionId` but were written around the
   * wrapper (no recorded evidence), read as one endogenous assertion each: never verified, and
   * DEGRADED (scope `langgraph.unrecorded`), since nothing says the set is complete.
   */
  async readUnrecorded(namespacePrefix: string[], propositionId: string): Promise<EvidenceView> {
    this.#refuseReserved(namespacePrefix, 'readUnrecorded');
    const latest = await this.ledger.get(propositionId);
    const recorded = new Set((latest?.assertions ?? []).map((a) => `${a.source.origin_locator}\u0000${a.source.content_hash}`));
    const assertions: Assertion[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.inner.search(namespacePrefix, { limit: 100, offset });
      for (const item of page) {
        if (this.#isReserved(item) || this.#propositionOf(item.namespace, item.key, item.value) !== propositionId) continue;
        const at = item.updatedAt instanceof Date ? item.updatedAt.toISOString() : '';
        const a = await itemAssertion({
          namespace: item.namespace,
          key: item.key,
          value: item.value,
          propositionId,
          text: this.#textOf(item.value),
          origin: this.#origin,
          assertedBy: this.#assertedBy,
          at,
        });
        if (!recorded.has(`${a.source.origin_locator}\u0000${a.source.content_hash}`)) assertions.push(a);
      }
      if (page.length < 100) break;
    }
    return { ...emptyView(propositionId), view_id: 'unrecorded', assertions, retrieval_scope: UNRECORDED_SCOPE };
  }

  override async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) {
      if ('namespacePrefix' in op) results.push(await this.#search(op));
      else if ('value' in op) results.push(await this.#put(op));
      else if ('key' in op) results.push(await this.#get(op));
      else results.push(await this.#listNamespaces(op));
    }
    return results as OperationResults<Op>;
  }

  override start(): void | Promise<void> {
    return this.inner.start();
  }

  override stop(): void | Promise<void> {
    return this.inner.stop();
  }

  #refuseReserved(namespace: string[], what: string): void {
    if (namespace[0] === this.ledger.namespaceRoot) {
      throw new ReservedNamespaceError(this.ledger.namespaceRoot, what);
    }
  }

  #isReserved(item: Item): boolean {
    return item.namespace[0] === this.ledger.namespaceRoot;
  }

  /**
   * Evidence first, then the item: a memory visible in the inner store always has its assertion
   * (if the ledger refuses, the item is not written). Item writes on one inner store are
   * serialized, so two writers of one proposition cannot lose each other's contribution.
   */
  async #put(op: PutOperation): Promise<void> {
    this.#refuseReserved(op.namespace, op.value === null ? 'delete' : 'put');
    await itemWriteLock(this.inner, async () => {
      const at = this.#now().toISOString();
      const locator = itemLocator(op.namespace, op.key);
      const previous = await this.inner.get(op.namespace, op.key);
      const previousPid = previous === null ? undefined : this.#propositionOf(op.namespace, op.key, previous.value);
      if (op.value === null) {
        if (previousPid !== undefined) await this.#contribute(previousPid, locator, undefined);
        await this.inner.batch([{ ...op }]);
        return;
      }
      const pid = this.#propositionOf(op.namespace, op.key, op.value);
      const assertion = await itemAssertion({
        namespace: op.namespace,
        key: op.key,
        value: op.value,
        propositionId: pid,
        text: this.#textOf(op.value),
        origin: this.#origin,
        assertedBy: this.#assertedBy,
        at,
      });
      await this.#contribute(pid, locator, assertion);
      await this.inner.batch([{ ...op }]);
      // The item moved to another proposition: its old proposition loses this contribution.
      if (previousPid !== undefined && previousPid !== pid) await this.#contribute(previousPid, locator, undefined);
    });
  }

  /**
   * Make `assertion` (or nothing) the only contribution of the item at `locator` to `pid`, as a
   * new snapshot; no snapshot when that is already so (an identical re-put).
   */
  async #contribute(pid: string, locator: string, assertion: Assertion | undefined): Promise<void> {
    const latest = await this.ledger.get(pid);
    const mine = latest?.assertions.filter((a) => a.source.origin_locator === locator) ?? [];
    if (
      assertion === undefined
        ? mine.length === 0
        : mine.length === 1 &&
          mine[0]!.text === assertion.text &&
          mine[0]!.source.content_hash === assertion.source.content_hash &&
          mine[0]!.source.origin_type === assertion.source.origin_type
    ) {
      return;
    }
    if (latest === undefined && assertion === undefined) return;
    const base = latest ?? emptyView(pid);
    const others = base.assertions.filter((a) => a.source.origin_locator !== locator);
    const next = decodeView({ ...base, view_id: null, assertions: assertion === undefined ? others : [...others, assertion] });
    // A content-derived id that already names an older snapshot (the proposition went back to an
    // earlier state) gets a sequence suffix, so the new commit becomes latest.
    const snapshots = await this.ledger.listSnapshots(pid);
    if (snapshots.some((s) => s.view_id === next.view_id)) next.view_id = `${next.view_id}#${snapshots.length}`;
    await this.ledger.put(next);
  }

  async #get(op: GetOperation): Promise<WarrantedItem | null> {
    this.#refuseReserved(op.namespace, 'get');
    const item = await this.inner.get(op.namespace, op.key);
    if (item === null) return null;
    const [warranted] = await this.#attachWarrants([item], false);
    return warranted ?? null;
  }

  async #search(op: SearchOperation): Promise<WarrantedSearchItem[]> {
    this.#refuseReserved(op.namespacePrefix, 'search');
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    let hits: Item[];
    if (op.namespacePrefix.length > 0) {
      // One more than asked: its presence is how we know `limit` cut the result.
      hits = await this.inner.search(op.namespacePrefix, { filter: op.filter, query: op.query, limit: limit + 1, offset });
    } else {
      hits = await this.#searchEverything(op, offset + limit + 1);
      hits = hits.slice(offset);
    }
    const cut = hits.length > limit;
    return this.#attachWarrants(hits.slice(0, limit), cut);
  }

  /** A search of `[]` without the reserved EWP items, which must not use up the caller's limit. */
  async #searchEverything(op: SearchOperation, wanted: number): Promise<Item[]> {
    const out: Item[] = [];
    const page = Math.max(wanted, 50);
    for (let at = 0; out.length < wanted; at += page) {
      const hits = await this.inner.search([], { filter: op.filter, query: op.query, limit: page, offset: at });
      out.push(...hits.filter((item) => !this.#isReserved(item)));
      if (hits.length < page) break;
    }
    return out.slice(0, wanted);
  }

  async #listNamespaces(op: ListNamespacesOperation): Promise<string[][]> {
    const all: string[][] = [];
    const page = 1000;
    for (let at = 0; ; at += page) {
      const batch = await this.inner.batch([{ ...op, limit: page, offset: at }]);
      const names = batch[0] as string[][];
      all.push(...names.filter((ns) => ns[0] !== this.ledger.namespaceRoot));
      if (names.length < page) break;
    }
    return all.slice(op.offset, op.offset + op.limit);
  }

  async #attachWarrants<T extends Item>(items: T[], cut: boolean): Promise<Array<T & { warrant: Warrant }>> {
    const evaluatedAt = this.#now().toISOString();
    const latestByPid = new Map<string, EvidenceView | undefined>();
    const out: Array<T & { warrant: Warrant }> = [];
    for (const item of items) {
      const pid = this.#propositionOf(item.namespace, item.key, item.value);
      if (!latestByPid.has(pid)) latestByPid.set(pid, await this.ledger.get(pid));
      const latest = latestByPid.get(pid);
      let view = latest ?? emptyView(pid);
      const own = await itemAssertion({
        namespace: item.namespace,
        key: item.key,
        value: item.value,
        propositionId: pid,
        text: this.#textOf(item.value),
        origin: this.#origin,
        assertedBy: this.#assertedBy,
        at: item.updatedAt instanceof Date ? item.updatedAt.toISOString() : evaluatedAt,
      });
      const recorded = view.assertions.some((a) => a.source.origin_locator === own.source.origin_locator && a.source.content_hash === own.source.content_hash);
      if (!recorded) {
        // Written around the wrapper: read as an unrecorded, endogenous claim, so DEGRADED.
        view = {
          ...view,
          view_id: `${view.view_id || 'none'}#unrecorded`,
          assertions: [...view.assertions.filter((a) => a.source.origin_locator !== own.source.origin_locator), own],
          retrieval_scope: UNRECORDED_SCOPE,
        };
      }
      if (cut) view = { ...view, view_id: `${view.view_id}#search`, degraded: true, retrieval_scope: SEARCH_SCOPE };
      out.push({ ...item, warrant: warrantOf(warrantNow(view, this.#policy, evaluatedAt), { cut, unrecorded: !recorded }) });
    }
    return out;
  }
}
