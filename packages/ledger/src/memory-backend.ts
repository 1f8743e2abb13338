/**
 * In-process rows for {@link MemoryEvidenceStore}. Rows are kept as strings, so nothing a caller
 * holds can alias stored data. A write works on a copy-on-write overlay and only merges on success,
 * so a refused write leaves no trace.
 */
import { StoreUnavailableError } from './errors.js';
import { type ChainAnchor, EMPTY_ANCHOR, type StoredChainEntry } from '@ewp/canonical';
import type { LedgerBackend, LedgerReader, LedgerWriter, NewSnapshotRow, SnapshotRow, StoredBinding, StoredEntryRow } from './ledger-backend.js';
import { entryKey, entryMatches } from './ledger-entries.js';
import { type Binding, type BindingKind, bindingKey } from './snapshot-layout.js';

interface Tables {
  snapshots: SnapshotRow[];
  byName: Map<string, SnapshotRow>;
  latest: Map<string, SnapshotRow>;
  counts: Map<string, number>;
  bindings: Map<string, Map<string, StoredBinding>>;
  chain: StoredChainEntry[];
  anchor: ChainAnchor;
  /** Entry rows in chain order, by `entryKey`, and by subject (the subject index of the other backends). */
  entries: StoredEntryRow[];
  entriesByKey: Map<string, StoredEntryRow>;
  entriesBySubject: Map<string, StoredEntryRow[]>;
}

const nameKey = (pid: string, vid: string) => `${pid}\u0000${vid}`;

function reader(t: Tables, pending?: Pending): LedgerReader {
  const snap = (s: SnapshotRow | undefined) => s;
  return {
    findSnapshot: (pid, vid) => snap(pending?.byName.get(nameKey(pid, vid)) ?? t.byName.get(nameKey(pid, vid))),
    latestSnapshot: (pid) => pending?.latest.get(pid) ?? t.latest.get(pid),
    snapshotBySeq: (seq) => t.snapshots[seq - 1] ?? pending?.snapshots.find((s) => s.seq === seq),
    bindings: (pid, keys) => {
      const out = new Map<string, StoredBinding>();
      const table = t.bindings.get(pid);
      const extra = pending?.bindings.get(pid);
      for (const { kind, id } of keys) {
        const key = bindingKey(kind, id);
        const b = table?.get(key) ?? extra?.get(key);
        if (b !== undefined) out.set(key, { ...b });
      }
      return out;
    },
    snapshotIds: (pid) => t.snapshots.filter((s) => s.proposition_id === pid).map((s) => ({ view_id: s.view_id, seq: s.seq })),
    latestRows: () =>
      [...t.latest.values()].sort((a, b) => b.seq - a.seq).map((row) => ({ row: { ...row }, snapshots: t.counts.get(row.proposition_id) ?? 0 })),
    chainAnchor: () => pending?.anchor ?? t.anchor,
    chainTail: () => {
      const chain = pending && pending.chain.length > 0 ? [...t.chain, ...pending.chain] : t.chain;
      const last = chain.at(-1);
      return last === undefined ? undefined : { index: chain.length - 1, hash: last.hash };
    },
    chainEntries: () => t.chain.map((e) => ({ ...e })),
    allSnapshots: () => t.snapshots.map((s) => ({ ...s })),
    entries: (q) => {
      // A subject narrows to its own rows first, as an index would.
      const committed = q.subject === undefined ? t.entries : (t.entriesBySubject.get(q.subject) ?? []);
      // Rows are in chain order; newest first walks them from the end.
      const rows = pending === undefined ? committed : [...committed, ...pending.entries];
      const step = q.newestFirst === true ? -1 : 1;
      const out: StoredEntryRow[] = [];
      for (let i = step === 1 ? 0 : rows.length - 1; i >= 0 && i < rows.length; i += step) {
        if (out.length >= q.limit) break;
        const row = rows[i] as StoredEntryRow;
        if (entryMatches(row, q)) out.push({ ...row });
      }
      return out;
    },
    entryRows: (keys) => {
      const out = new Map<string, StoredEntryRow>();
      for (const { kind, id } of keys) {
        const key = entryKey(kind, id);
        const row = t.entriesByKey.get(key) ?? pending?.entries.find((e) => e.kind === kind && e.id === id);
        if (row !== undefined) out.set(key, { ...row });
      }
      return out;
    },
    allEntries: () => t.entries.map((e) => ({ ...e })),
    allBindings: function* () {
      for (const [pid, table] of t.bindings) {
        for (const [key, b] of table) {
          const sep = key.indexOf('\u0000');
          yield { proposition_id: pid, kind: key.slice(0, sep) as BindingKind, id: key.slice(sep + 1), body: b.body };
        }
      }
    },
  };
}

interface Pending {
  snapshots: SnapshotRow[];
  byName: Map<string, SnapshotRow>;
  latest: Map<string, SnapshotRow>;
  bindings: Map<string, Map<string, StoredBinding>>;
  chain: StoredChainEntry[];
  anchor: ChainAnchor | undefined;
  entries: StoredEntryRow[];
}

/** The backend of {@link MemoryEvidenceStore}; exported for tests that tamper with rows. */
export class MemoryLedgerBackend implements LedgerBackend {
  /** The tables, exposed so tests can simulate tampering. */
  readonly tables: Tables = {
    snapshots: [],
    byName: new Map(),
    latest: new Map(),
    counts: new Map(),
    bindings: new Map(),
    chain: [],
    anchor: EMPTY_ANCHOR,
    entries: [],
    entriesByKey: new Map(),
    entriesBySubject: new Map(),
  };
  private queue: Promise<unknown> = Promise.resolve();
  private readonly readOnly: boolean;

  constructor(options?: { readOnly?: boolean }) {
    this.readOnly = options?.readOnly ?? false;
  }

  async read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    return fn(reader(this.tables));
  }

  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) return Promise.reject(new StoreUnavailableError('read_only', 'the store was opened read-only'));
    // Writes run one at a time, like a database's exclusive transaction.
    const run = this.queue.then(() => this.transaction(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async transaction<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    const t = this.tables;
    const p: Pending = { snapshots: [], byName: new Map(), latest: new Map(), bindings: new Map(), chain: [], anchor: undefined, entries: [] };
    const writer: LedgerWriter = {
      ...reader(t, p),
      insertBindings: (pid: string, rows: readonly Binding[]) => {
        let table = p.bindings.get(pid);
        if (table === undefined) {
          table = new Map();
          p.bindings.set(pid, table);
        }
        for (const b of rows) table.set(bindingKey(b.kind, b.id), { body: b.body });
      },
      insertSnapshot: (row: NewSnapshotRow) => {
        const seq = t.snapshots.length + p.snapshots.length + 1;
        const full: SnapshotRow = { ...row, seq };
        p.snapshots.push(full);
        p.byName.set(nameKey(row.proposition_id, row.view_id), full);
        p.latest.set(row.proposition_id, full);
        return seq;
      },
      insertEntries: (rows: readonly StoredEntryRow[]) => {
        p.entries.push(...rows.map((r) => ({ ...r })));
      },
      appendChain: (entries: readonly StoredChainEntry[], anchor: ChainAnchor) => {
        p.chain.push(...entries.map((e) => ({ ...e })));
        p.anchor = anchor;
      },
    };
    const result = await fn(writer);
    // Commit: merge the overlay (synchronous, so it is all or nothing).
    for (const s of p.snapshots) {
      t.snapshots.push(s);
      t.byName.set(nameKey(s.proposition_id, s.view_id), s);
      t.latest.set(s.proposition_id, s);
      t.counts.set(s.proposition_id, (t.counts.get(s.proposition_id) ?? 0) + 1);
    }
    for (const [pid, rows] of p.bindings) {
      let table = t.bindings.get(pid);
      if (table === undefined) {
        table = new Map();
        t.bindings.set(pid, table);
      }
      for (const [k, v] of rows) table.set(k, v);
    }
    for (const e of p.entries) {
      t.entries.push(e);
      t.entriesByKey.set(entryKey(e.kind, e.id), e);
      for (const subject of new Set(JSON.parse(e.subjects) as string[])) {
        const list = t.entriesBySubject.get(subject);
        if (list === undefined) t.entriesBySubject.set(subject, [e]);
        else list.push(e);
      }
    }
    t.chain.push(...p.chain);
    if (p.anchor !== undefined) t.anchor = p.anchor;
    return result;
  }

  async close(): Promise<void> {}
}
