/**
 * WarrantedStore: a LangGraph BaseStore that wraps another one. Agent memories pass through
 * unchanged; each write is also recorded as an endogenous assertion in an EWP ledger kept in
 * the same inner store, and every item read back carries its proposition's warrant at the time
 * of the read.
 */
import {
  type Assertion,
  canonicalViewText,
  DEFAULT_FRESHNESS_SECONDS,
  decodeView,
  type EvidenceView,
  type Policy,
  REFERENCE_V2,
  type WarrantView,
  warrantNow,
} from '@ewp/core';
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
import { BaseStoreLedger, type PreparedCommit } from '../ledger/base-store-ledger.js';
import { LedgerRefusal } from '../ledger/ledger-errors.js';
import {
  defaultItemProposition,
  defaultItemText,
  itemAssertion,
  itemLocator,
  type MemoryOrigin,
} from './item-assertion.js';

/** A stored item plus the warrant of the proposition it asserts, evaluated at read time. */
export type WarrantedItem = Item & { warrant: WarrantView };
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
 * - `put` stores the item in the inner store and, in the same batch, a new ledger snapshot of
 *   the item's proposition in which this item path contributes exactly one assertion (its
 *   current content) from origin `turn` or `extract`; `delete` removes that contribution.
 * - `get`/`search` return the items with `warrant`: the proposition's WarrantView at call time.
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
      throw new TypeError(`origin: must be "turn" or "extract", got ${JSON.stringify(options.origin)}`);
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
  async warrantOf(propositionId: string, evaluatedAt?: string): Promise<WarrantView | undefined> {
    const view = await this.ledger.get(propositionId);
    return view === undefined ? undefined : warrantNow(view, this.#policy, evaluatedAt ?? this.#now().toISOString());
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
      throw new LedgerRefusal(
        'EWP_REFUSE_RESERVED_NAMESPACE',
        `${what}: namespace root ${JSON.stringify(this.ledger.namespaceRoot)} holds EWP records; use store.ledger`,
        '$.namespace[0]',
      );
    }
  }

  #isReserved(item: Item): boolean {
    return item.namespace[0] === this.ledger.namespaceRoot;
  }

  async #put(op: PutOperation): Promise<void> {
    this.#refuseReserved(op.namespace, op.value === null ? 'delete' : 'put');
    const at = this.#now().toISOString();
    const locator = itemLocator(op.namespace, op.key);
    const previous = await this.inner.get(op.namespace, op.key);
    const previousPid = previous === null ? undefined : this.#propositionOf(op.namespace, op.key, previous.value);
    const itemWrite: PutOperation = { ...op };

    if (op.value === null) {
      if (previousPid === undefined) {
        await this.inner.batch([itemWrite]);
        return;
      }
      await this.ledger.commit(() => this.#withoutItem(previousPid, locator), [itemWrite]);
      return;
    }

    const value = op.value;
    const pid = this.#propositionOf(op.namespace, op.key, value);
    const fresh = await itemAssertion({
      namespace: op.namespace,
      key: op.key,
      value,
      propositionId: pid,
      text: this.#textOf(value),
      origin: this.#origin,
      assertedBy: this.#assertedBy,
      at,
    });
    await this.ledger.commit(async () => {
      const assertion = (await this.#committedAssertion(pid, fresh.assertion_id)) ?? fresh;
      const latest = await this.ledger.get(pid);
      const base: EvidenceView = latest ?? emptyView(pid);
      const next: EvidenceView = {
        ...base,
        assertions: [...base.assertions.filter((a) => a.source.origin_locator !== locator), assertion],
      };
      return this.#snapshot(next, latest);
    }, [itemWrite]);
    // The item moved to another proposition: its old proposition loses this contribution.
    if (previousPid !== undefined && previousPid !== pid) {
      await this.ledger.commit(() => this.#withoutItem(previousPid, locator));
    }
  }

  /** A committed assertion of `pid` with this id, rebuilt from the ledger's id index (A, B, A keeps A's times). */
  async #committedAssertion(pid: string, assertionId: string): Promise<Assertion | undefined> {
    const index = await this.ledger.recordIndex(pid);
    const content = index?.assertions[assertionId];
    if (index === undefined || content === undefined) return undefined;
    const fields = JSON.parse(content) as Omit<Assertion, 'source' | 'assertion_id'> & { source_id: string };
    const source = index.sources[fields.source_id];
    if (source === undefined) return undefined;
    return {
      assertion_id: assertionId,
      proposition_id: fields.proposition_id,
      text: fields.text,
      asserted_by: fields.asserted_by,
      assertion_confidence: fields.assertion_confidence,
      asserted_at: fields.asserted_at,
      source: JSON.parse(source),
    };
  }

  async #withoutItem(pid: string, locator: string): Promise<PreparedCommit> {
    const latest = await this.ledger.get(pid);
    if (latest === undefined) return { result: { status: 'unchanged', proposition_id: pid, view_id: '' }, operations: [] };
    const next = { ...latest, assertions: latest.assertions.filter((a) => a.source.origin_locator !== locator) };
    return this.#snapshot(next, latest);
  }

  /**
   * Prepare `next` as a new snapshot unless it equals `latest`. Its id is derived from its
   * content; if that id already names an older snapshot (content went A → B → A), a sequence
   * suffix keeps the new commit distinct so that it becomes latest.
   */
  async #snapshot(next: EvidenceView, latest: EvidenceView | undefined): Promise<PreparedCommit> {
    const candidate = decodeView({ ...next, view_id: null });
    if (latest !== undefined && canonicalViewText(latest) === canonicalViewText(candidate)) {
      return { result: { status: 'unchanged', proposition_id: latest.proposition_id, view_id: latest.view_id }, operations: [] };
    }
    const snapshots = await this.ledger.listSnapshots(candidate.proposition_id);
    if (snapshots.some((s) => s.view_id === candidate.view_id)) {
      candidate.view_id = `${candidate.view_id}#${snapshots.length}`;
    }
    return this.ledger.prepare(candidate);
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

  async #attachWarrants<T extends Item>(items: T[], cut: boolean): Promise<Array<T & { warrant: WarrantView }>> {
    const evaluatedAt = this.#now().toISOString();
    const latestByPid = new Map<string, EvidenceView | undefined>();
    const out: Array<T & { warrant: WarrantView }> = [];
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
      if (!view.assertions.some((a) => a.assertion_id === own.assertion_id)) {
        // Written around the wrapper: read as an unrecorded, endogenous claim, so DEGRADED.
        view = {
          ...view,
          view_id: `${view.view_id || 'none'}#unrecorded`,
          assertions: [...view.assertions.filter((a) => a.assertion_id !== own.assertion_id), own],
          retrieval_scope: UNRECORDED_SCOPE,
        };
      }
      if (cut) view = { ...view, view_id: `${view.view_id}#search`, degraded: true, retrieval_scope: SEARCH_SCOPE };
      out.push({ ...item, warrant: warrantNow(view, this.#policy, evaluatedAt) });
    }
    return out;
  }
}

function emptyView(propositionId: string): EvidenceView {
  return {
    proposition_id: propositionId,
    view_id: '',
    assertions: [],
    evidence: [],
    lineage: [],
    conflicts: [],
    checks: [],
    omitted_sources: [],
    retrieval_scope: 'complete',
    degraded: false,
    freshness_policy_seconds: DEFAULT_FRESHNESS_SECONDS,
    adapter_meta: {},
    subjects: [],
  };
}
