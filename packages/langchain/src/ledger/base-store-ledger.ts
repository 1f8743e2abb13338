/**
 * An EvidenceStore kept inside any LangGraph BaseStore (InMemoryStore, a SQLite or Postgres
 * store), under one reserved namespace root (default `ewp`). Snapshots are stored whole, so a
 * round trip is lossless (adapter_meta included).
 *
 * Layout under the root R:
 * - `[R, "snapshots"]` key `["<P>","<view_id>"]` (JSON text): `{ proposition_id, view_id, seq, view }`
 * - `[R, "heads"]` key `<P>`: `{ proposition_id, view_ids, last_commit }` — the commit point
 * - `[R, "records"]` key `<P>`: the id → content index of STORES.md §1.5
 * - `[R, "chain"]` key `<index, 12 digits>`: `{ index, prev, hash, event }`; `[R, "chain-head"]` key `head`
 *
 * Each write is one `batch()` of puts on the inner store, in commit order (snapshot, index,
 * head, chain); reads trust only what a head lists, so a write interrupted before its head
 * leaves an orphan that is never read and is overwritten by the retry.
 */
import { canonicalViewText, decodeView, deriveViewId, type EvidenceView } from '@ewp/core';
import type {
  ChainVerification,
  EvidenceStore,
  LedgerRecord,
  ListPropositionsQuery,
  PropositionSummary,
  PutResult,
  SnapshotSummary,
  StoreCapabilities,
} from '@ewp/ledger';
import type { BaseStore, Item, PutOperation } from '@langchain/langgraph';
import { LedgerRefusal } from './ledger-errors.js';
import { admitView, emptyRecordIndex, type RecordIndex } from './record-identity.js';
import { sha256Hex } from './sha256.js';
import { stableJson } from './stable-json.js';
import { withWriteLock } from './write-lock.js';

/** The default namespace root that holds EWP records. */
export const DEFAULT_EWP_NAMESPACE = 'ewp';

const GENESIS = '0'.repeat(64);
const PAGE = 100;

export interface BaseStoreLedgerOptions {
  /** Namespace root for EWP records (default `ewp`); the wrapper refuses agent writes under it. */
  namespaceRoot?: string;
  /** Whether the inner store survives a restart (a SQLite/Postgres store: true). Default false. */
  persistent?: boolean;
}

interface HeadValue {
  proposition_id: string;
  view_ids: string[];
  last_commit: number;
}

interface ChainEntry {
  index: number;
  prev: string;
  hash: string;
  event: { type: 'snapshot'; proposition_id: string; view_id: string; digest: string };
}

interface ChainHead {
  length: number;
  hash: string;
}

/** A snapshot write prepared under the lock: the puts to issue, and its result. */
export interface PreparedCommit {
  result: PutResult;
  operations: PutOperation[];
}

function snapshotKey(propositionId: string, viewId: string): string {
  return JSON.stringify([propositionId, viewId]);
}

function chainKey(index: number): string {
  return String(index).padStart(12, '0');
}

function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * {@link EvidenceStore} over a LangGraph `BaseStore`. Immutable `(proposition_id, view_id)`
 * snapshots, latest-by-commit, the §1.5 id rule, and a SHA-256 hash chain of commits, all kept
 * as ordinary items of the inner store.
 */
export class BaseStoreLedger implements EvidenceStore {
  readonly capabilities: StoreCapabilities;
  /** The namespace root holding EWP records. */
  readonly namespaceRoot: string;
  readonly #inner: BaseStore;

  constructor(inner: BaseStore, options: BaseStoreLedgerOptions = {}) {
    this.#inner = inner;
    this.namespaceRoot = options.namespaceRoot ?? DEFAULT_EWP_NAMESPACE;
    this.capabilities = { persistent: options.persistent ?? false, multiProcess: false, keepsAdapterMeta: true };
  }

  #ns(part: string): string[] {
    return [this.namespaceRoot, part];
  }

  async #value<T>(part: string, key: string): Promise<T | undefined> {
    const item = await this.#inner.get(this.#ns(part), key);
    return item === null ? undefined : (item.value as T);
  }

  async put(view: unknown): Promise<PutResult> {
    const decoded = decodeView(view);
    return this.commit(async () => this.prepare(decoded));
  }

  async get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined> {
    const head = await this.#value<HeadValue>('heads', propositionId);
    if (head === undefined) return undefined;
    const id = viewId ?? head.view_ids[head.view_ids.length - 1];
    if (id === undefined || !head.view_ids.includes(id)) return undefined;
    const stored = await this.#value<{ view: unknown }>('snapshots', snapshotKey(propositionId, id));
    if (stored === undefined) {
      throw new LedgerRefusal(
        'EWP_REFUSE_LEDGER_UNAVAILABLE',
        `snapshot ${JSON.stringify(id)} of ${JSON.stringify(propositionId)} is committed but missing from the store`,
      );
    }
    // Re-validate on read: a damaged item fails the read instead of being evaluated.
    return decodeView(plain(stored.view));
  }

  async extend(
    propositionId: string,
    records: LedgerRecord[],
    options: { newViewId?: string } = {},
  ): Promise<PutResult> {
    return this.commit(async () => {
      const latest = await this.get(propositionId);
      if (latest === undefined) {
        throw new LedgerRefusal('EWP_REFUSE_MISSING_VIEW', `no stored snapshot for ${JSON.stringify(propositionId)}`);
      }
      const next = applyRecords(latest, records);
      const raw: Record<string, unknown> = { ...next, view_id: options.newViewId ?? null };
      return this.prepare(decodeView(raw));
    });
  }

  /**
   * Run `prepare` and issue its writes under the inner store's write lock. Used by the
   * wrappers that write a memory item and its evidence in one batch.
   */
  async commit(prepare: () => Promise<PreparedCommit>, extra: PutOperation[] = []): Promise<PutResult> {
    return withWriteLock(this.#inner, async () => {
      const prepared = await prepare();
      const operations = [...extra, ...prepared.operations];
      if (operations.length > 0) await this.#inner.batch(operations);
      return prepared.result;
    });
  }

  /**
   * Check a decoded view against the ledger and return the writes that commit it (none for an
   * identical re-put). Must run under {@link commit}'s lock.
   */
  async prepare(view: EvidenceView): Promise<PreparedCommit> {
    const pid = view.proposition_id;
    const vid = view.view_id;
    const head = await this.#value<HeadValue>('heads', pid);
    if (head?.view_ids.includes(vid)) {
      const existing = await this.get(pid, vid);
      if (existing !== undefined && canonicalViewText(existing) === canonicalViewText(view)) {
        return { result: { status: 'unchanged', proposition_id: pid, view_id: vid }, operations: [] };
      }
      throw new LedgerRefusal(
        'EWP_REFUSE_IMMUTABLE_RECORD',
        `snapshot ${JSON.stringify(vid)} of ${JSON.stringify(pid)} already exists with other content`,
        '$.view_id',
      );
    }
    const index = (await this.#value<RecordIndex>('records', pid)) ?? emptyRecordIndex();
    const nextIndex = admitView(index, view);
    const chainHead = (await this.#value<ChainHead>('chain-head', 'head')) ?? { length: 0, hash: GENESIS };
    const event = { type: 'snapshot' as const, proposition_id: pid, view_id: vid, digest: deriveViewId(view) };
    const hash = await sha256Hex(`${chainHead.hash}\n${stableJson(event)}`);
    const entry: ChainEntry = { index: chainHead.length, prev: chainHead.hash, hash, event };
    const seq = head?.view_ids.length ?? 0;
    const nextHead: HeadValue = {
      proposition_id: pid,
      view_ids: [...(head?.view_ids ?? []), vid],
      last_commit: chainHead.length,
    };
    const operations: PutOperation[] = [
      {
        namespace: this.#ns('snapshots'),
        key: snapshotKey(pid, vid),
        value: { proposition_id: pid, view_id: vid, seq, view: plain(view) },
        index: false,
      },
      { namespace: this.#ns('records'), key: pid, value: nextIndex as unknown as Record<string, unknown>, index: false },
      { namespace: this.#ns('chain'), key: chainKey(entry.index), value: { ...entry }, index: false },
      { namespace: this.#ns('heads'), key: pid, value: { ...nextHead }, index: false },
      { namespace: this.#ns('chain-head'), key: 'head', value: { length: entry.index + 1, hash }, index: false },
    ];
    return { result: { status: 'stored', proposition_id: pid, view_id: vid }, operations };
  }

  async #allItems(part: string): Promise<Item[]> {
    const out: Item[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#inner.search(this.#ns(part), { limit: PAGE, offset });
      // Only direct children of the namespace: a prefix search would also match deeper ones.
      out.push(...page.filter((item) => item.namespace.length === 2));
      if (page.length < PAGE) return out;
    }
  }

  async listPropositions(query: ListPropositionsQuery = {}): Promise<PropositionSummary[]> {
    const limit = query.limit ?? 50;
    const needle = query.query?.toLowerCase();
    const heads = (await this.#allItems('heads'))
      .map((item) => item.value as HeadValue)
      .sort((a, b) => b.last_commit - a.last_commit);
    const out: PropositionSummary[] = [];
    for (const head of heads) {
      if (out.length >= limit) break;
      const latestId = head.view_ids[head.view_ids.length - 1];
      if (latestId === undefined) continue;
      const latest = await this.get(head.proposition_id, latestId);
      const texts = [...new Set((latest?.assertions ?? []).map((a) => a.text))].slice(0, 5);
      if (
        needle !== undefined &&
        !head.proposition_id.toLowerCase().includes(needle) &&
        !texts.some((t) => t.toLowerCase().includes(needle))
      ) {
        continue;
      }
      out.push({
        proposition_id: head.proposition_id,
        latest_view_id: latestId,
        assertions: texts,
        snapshots: head.view_ids.length,
      });
    }
    return out;
  }

  /** The §1.5 id → content index of a proposition (what every committed id names). */
  async recordIndex(propositionId: string): Promise<RecordIndex | undefined> {
    return this.#value<RecordIndex>('records', propositionId);
  }

  async listSnapshots(propositionId: string): Promise<SnapshotSummary[]> {
    const head = await this.#value<HeadValue>('heads', propositionId);
    return (head?.view_ids ?? []).map((view_id, seq) => ({ view_id, seq }));
  }

  async verifyChain(): Promise<ChainVerification> {
    const head = (await this.#value<ChainHead>('chain-head', 'head')) ?? { length: 0, hash: GENESIS };
    let prev = GENESIS;
    for (let index = 0; index < head.length; index += 1) {
      const entry = await this.#value<ChainEntry>('chain', chainKey(index));
      if (entry === undefined) return { ok: false, length: head.length, firstBadIndex: index, reason: 'entry missing' };
      if (entry.index !== index || entry.prev !== prev) {
        return { ok: false, length: head.length, firstBadIndex: index, reason: 'broken link to the previous entry' };
      }
      const hash = await sha256Hex(`${prev}\n${stableJson(entry.event)}`);
      if (hash !== entry.hash) return { ok: false, length: head.length, firstBadIndex: index, reason: 'hash mismatch' };
      prev = hash;
    }
    if (prev !== head.hash) {
      return { ok: false, length: head.length, firstBadIndex: head.length, reason: 'head does not match the last entry' };
    }
    return { ok: true, length: head.length, head: prev };
  }

  /** The inner store's lifecycle belongs to its owner; closing the ledger does not stop it. */
  async close(): Promise<void> {}
}

/**
 * Latest snapshot + appended records (STORES.md §2 `extend_view`). A conflict whose id is
 * already present replaces that row (its status belongs to the snapshot); an identical lineage
 * edge is not repeated.
 */
export function applyRecords(latest: EvidenceView, records: LedgerRecord[]): EvidenceView {
  const next: EvidenceView = {
    ...latest,
    assertions: [...latest.assertions],
    evidence: [...latest.evidence],
    checks: [...latest.checks],
    conflicts: [...latest.conflicts],
    lineage: [...latest.lineage],
  };
  for (const entry of records) {
    switch (entry.kind) {
      case 'assertion':
        next.assertions.push(entry.record);
        break;
      case 'evidence':
        next.evidence.push(entry.record);
        break;
      case 'check':
        next.checks.push(entry.record);
        break;
      case 'conflict': {
        const at = next.conflicts.findIndex((c) => c.conflict_id === entry.record.conflict_id);
        if (at >= 0) next.conflicts[at] = entry.record;
        else next.conflicts.push(entry.record);
        break;
      }
      case 'lineage': {
        const edge = entry.record;
        const same = next.lineage.some((l) => l.from_id === edge.from_id && l.to_id === edge.to_id && l.kind === edge.kind);
        if (!same) next.lineage.push(edge);
        break;
      }
    }
  }
  return next;
}
