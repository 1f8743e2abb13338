/**
 * The rows of the shared ledger engine (@ewp/ledger) kept as items of a LangGraph BaseStore,
 * under one reserved namespace root R (default `ewp`):
 *
 * | namespace          | key                         | value                                   |
 * |--------------------|-----------------------------|-----------------------------------------|
 * | `[R,"snapshots"]`  | commit seq, 12 digits       | the SnapshotRow                         |
 * | `[R,"names"]`      | `["<P>","<view_id>"]` (JSON)| `{ seq }`                               |
 * | `[R,"propositions"]`| `<P>`                      | `{ proposition_id, latest_seq, ids }`   |
 * | `[R,"bindings"]`   | `["<P>","<kind>","<id>"]`   | `{ proposition_id, kind, id, body }`   |
 * | `[R,"chain"]`      | entry index, 12 digits      | the StoredChainEntry                    |
 * | `[R,"meta"]`       | `counters`, `anchor`        | commit counters; the chain anchor       |
 *
 * A write transaction reads through an overlay of its own pending items and, when it succeeds,
 * issues them as one `batch()` (rows first, then names and heads, then counters and anchor), so
 * a refused write leaves nothing behind. The batch is as atomic as the inner store makes it:
 * InMemoryStore applies it at once; PostgresStore runs the puts one by one.
 */
import { type ChainAnchor, EMPTY_ANCHOR, type StoredChainEntry } from '@ewp/canonical';
import {
  type Binding,
  type BindingKind,
  type BindingRequest,
  bindingKey,
  type LedgerBackend,
  type LedgerReader,
  type LedgerWriter,
  type NewSnapshotRow,
  type SnapshotRow,
  type StoredBinding,
} from '@ewp/ledger';
import type { BaseStore, PutOperation } from '@langchain/langgraph';
import { ledgerWriteLock } from './write-lock.js';

type Part = 'snapshots' | 'names' | 'propositions' | 'bindings' | 'chain' | 'meta';
/** Order of a commit batch: rows before the items that make them visible. */
const COMMIT_ORDER: Part[] = ['snapshots', 'bindings', 'chain', 'names', 'propositions', 'meta'];
const PAGE = 100;

interface Counters {
  snapshots: number;
  chain: number;
}
interface PropositionHead {
  proposition_id: string;
  latest_seq: number;
  ids: { view_id: string; seq: number }[];
}
interface BindingItem {
  proposition_id: string;
  kind: BindingKind;
  id: string;
  body: string;
}

const pad = (n: number) => String(n).padStart(12, '0');
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

type Overlay = Map<string, { part: Part; key: string; value: Record<string, unknown> }>;

/** A {@link LedgerBackend} over any LangGraph BaseStore. */
export class BaseStoreLedgerBackend implements LedgerBackend {
  readonly namespaceRoot: string;
  readonly #inner: BaseStore;

  constructor(inner: BaseStore, namespaceRoot: string) {
    this.#inner = inner;
    this.namespaceRoot = namespaceRoot;
  }

  read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    return fn(this.#reader(undefined));
  }

  /** Writes of every ledger over the same inner store run one at a time (in this process). */
  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    return ledgerWriteLock(this.#inner, async () => {
      const overlay: Overlay = new Map();
      const writer = this.#writer(overlay);
      const result = await fn(writer);
      const operations: PutOperation[] = [];
      for (const part of COMMIT_ORDER) {
        for (const entry of overlay.values()) {
          if (entry.part === part) operations.push({ namespace: [this.namespaceRoot, part], key: entry.key, value: entry.value, index: false });
        }
      }
      if (operations.length > 0) await this.#inner.batch(operations);
      return result;
    });
  }

  async close(): Promise<void> {}

  /** The committed latest snapshot of `propositionId` (seq and view id), from its head item only. */
  async latestHead(propositionId: string): Promise<{ seq: number; view_id: string } | undefined> {
    const head = await this.#get<PropositionHead>(undefined, 'propositions', propositionId);
    return head?.ids.find((id) => id.seq === head.latest_seq);
  }

  async #get<T>(overlay: Overlay | undefined, part: Part, key: string): Promise<T | undefined> {
    const pending = overlay?.get(JSON.stringify([part, key]));
    if (pending !== undefined) return copy(pending.value) as T;
    const item = await this.#inner.get([this.namespaceRoot, part], key);
    return item === null ? undefined : (copy(item.value) as T);
  }

  #set(overlay: Overlay, part: Part, key: string, value: object): void {
    overlay.set(JSON.stringify([part, key]), { part, key, value: copy(value) as Record<string, unknown> });
  }

  async *#scan<T>(part: Part): AsyncGenerator<T> {
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#inner.search([this.namespaceRoot, part], { limit: PAGE, offset });
      // Only direct children: a prefix search would also match deeper namespaces.
      for (const item of page) if (item.namespace.length === 2) yield copy(item.value) as T;
      if (page.length < PAGE) return;
    }
  }

  async #counters(overlay: Overlay | undefined): Promise<Counters> {
    return (await this.#get<Counters>(overlay, 'meta', 'counters')) ?? { snapshots: 0, chain: 0 };
  }

  #reader(overlay: Overlay | undefined): LedgerReader {
    const snapshotBySeq = (seq: number) => this.#get<SnapshotRow>(overlay, 'snapshots', pad(seq));
    return {
      findSnapshot: async (pid, vid) => {
        const name = await this.#get<{ seq: number }>(overlay, 'names', JSON.stringify([pid, vid]));
        return name === undefined ? undefined : snapshotBySeq(name.seq);
      },
      latestSnapshot: async (pid) => {
        const head = await this.#get<PropositionHead>(overlay, 'propositions', pid);
        return head === undefined ? undefined : snapshotBySeq(head.latest_seq);
      },
      snapshotBySeq,
      bindings: async (pid, keys: readonly BindingRequest[]) => {
        const out = new Map<string, StoredBinding>();
        for (const { kind, id } of keys) {
          const b = await this.#get<BindingItem>(overlay, 'bindings', JSON.stringify([pid, kind, id]));
          if (b !== undefined) out.set(bindingKey(kind, id), { body: b.body });
        }
        return out;
      },
      snapshotIds: async (pid) => (await this.#get<PropositionHead>(overlay, 'propositions', pid))?.ids ?? [],
      latestRows: async () => {
        const heads: PropositionHead[] = [];
        for await (const head of this.#scan<PropositionHead>('propositions')) heads.push(head);
        heads.sort((a, b) => b.latest_seq - a.latest_seq);
        const rows: { row: SnapshotRow; snapshots: number }[] = [];
        for (const head of heads) {
          const row = await snapshotBySeq(head.latest_seq);
          if (row !== undefined) rows.push({ row, snapshots: head.ids.length });
        }
        return rows;
      },
      chainAnchor: async () => (await this.#get<ChainAnchor>(overlay, 'meta', 'anchor')) ?? { ...EMPTY_ANCHOR },
      chainTail: async () => {
        const { chain } = await this.#counters(overlay);
        if (chain === 0) return undefined;
        const last = await this.#get<StoredChainEntry>(overlay, 'chain', pad(chain - 1));
        return last === undefined ? undefined : { index: chain - 1, hash: last.hash };
      },
      chainEntries: async function* (this: BaseStoreLedgerBackend) {
        const { chain } = await this.#counters(overlay);
        for (let i = 0; i < chain; i += 1) {
          const entry = await this.#get<StoredChainEntry>(overlay, 'chain', pad(i));
          // A missing entry is yielded as an empty one, so verification fails at its index.
          yield entry ?? { prev_hash: '', event: '', hash: '' };
        }
      }.bind(this),
      allSnapshots: async function* (this: BaseStoreLedgerBackend) {
        const { snapshots } = await this.#counters(overlay);
        for (let seq = 1; seq <= snapshots; seq += 1) {
          const row = await snapshotBySeq(seq);
          if (row !== undefined) yield row;
        }
      }.bind(this),
      allBindings: () => this.#scan<BindingItem>('bindings'),
    };
  }

  #writer(overlay: Overlay): LedgerWriter {
    return {
      ...this.#reader(overlay),
      insertBindings: async (pid: string, rows: readonly Binding[]) => {
        for (const b of rows) {
          const item: BindingItem = { proposition_id: pid, kind: b.kind, id: b.id, body: b.body };
          this.#set(overlay, 'bindings', JSON.stringify([pid, b.kind, b.id]), item);
        }
      },
      insertSnapshot: async (row: NewSnapshotRow) => {
        const counters = await this.#counters(overlay);
        const seq = counters.snapshots + 1;
        this.#set(overlay, 'snapshots', pad(seq), { ...row, seq });
        this.#set(overlay, 'names', JSON.stringify([row.proposition_id, row.view_id]), { seq });
        const head = (await this.#get<PropositionHead>(overlay, 'propositions', row.proposition_id)) ?? {
          proposition_id: row.proposition_id,
          latest_seq: seq,
          ids: [],
        };
        this.#set(overlay, 'propositions', row.proposition_id, {
          proposition_id: row.proposition_id,
          latest_seq: seq,
          ids: [...head.ids, { view_id: row.view_id, seq }],
        });
        this.#set(overlay, 'meta', 'counters', { ...counters, snapshots: seq });
        return seq;
      },
      appendChain: async (entries: readonly StoredChainEntry[], anchor: ChainAnchor) => {
        const counters = await this.#counters(overlay);
        for (const [i, entry] of entries.entries()) this.#set(overlay, 'chain', pad(counters.chain + i), entry);
        this.#set(overlay, 'meta', 'counters', { ...counters, chain: counters.chain + entries.length });
        this.#set(overlay, 'meta', 'anchor', anchor);
      },
    };
  }
}
