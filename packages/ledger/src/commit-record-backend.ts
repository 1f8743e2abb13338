/**
 * The commit-record protocol: a {@link LedgerBackend} over any {@link CommitRecordStore}, so the one
 * ledger engine runs on stores without transactions (Mem0, Zep, a LangGraph BaseStore). Written once:
 *
 * 1. the engine's write runs against the committed state (commit positions 1..M);
 * 2. its rows are put as `row` records tagged with a random ingest id, and waited for;
 * 3. the ingest puts a `claim` on position M+1, waits for it, and lists the claims on M+1: a rival
 *    claim that is not withdrawn (or a commit there) makes it put a `withdrawal`, back off and run
 *    the write again on the new state; after `maxAttempts` it fails (`busy`);
 * 4. a claim with no rival is followed by the ingest's `commit` record: the rows exist from then on.
 *    It carries the ingest's events and its ledger-entry rows (read with the commits, at no extra
 *    listing).
 *
 * Rows of an ingest without a commit (a writer that died, a withdrawn attempt) are never read. Two
 * commits at one position, a missing position or missing rows make every read fail (`damaged`).
 * Safety rests on the store's listing showing every record whose put was seen by its writer: each
 * writer waits until its own records are listed before it relies on them (bounded by
 * `visibilityTimeoutMs`, then `lagging`). See docs/spec/store-contract.md §1 (atomic writes).
 */
import { randomUUID } from 'node:crypto';
import { InvalidArgumentError } from '@ewp/core';
import type { CommitRecord, CommitRecordQuery, CommitRecordStore } from './commit-record-store.js';
import { StoreUnavailableError } from './errors.js';
import { type ChainAnchor, EMPTY_ANCHOR, type StoredChainEntry } from '@ewp/canonical';
import type {
  BindingRequest,
  EntryKey,
  EntryRowQuery,
  LedgerBackend,
  LedgerReader,
  LedgerWriter,
  NewSnapshotRow,
  SnapshotRow,
  StoredBinding,
  StoredBindingRow,
  StoredEntryRow,
} from './ledger-backend.js';
import { entryKey, selectEntries } from './ledger-entries.js';
import { type Binding, type BindingKind, bindingKey } from './snapshot-layout.js';

/** Tuning of the protocol; the defaults suit a hosted store. */
export interface CommitRecordBackendOptions {
  /** Write attempts (one claim each) before a write fails with `busy`. Default 40. */
  maxAttempts?: number;
  /** How long to wait for the store to list the writer's own records (ms). Default 15 000. */
  visibilityTimeoutMs?: number;
  /**
   * A rival claim seen unresolved (neither withdrawn nor committed) for this long (ms) is taken for a
   * dead writer's and withdrawn on its behalf. A live claimant commits well within it. Default 30 000.
   */
  staleClaimMs?: number;
  /** Refuse every write with `read_only`. */
  readOnly?: boolean;
}

/**
 * What this protocol cannot guarantee on a store without transactions, reported by `verifyChain`
 * (`not_guaranteed`) rather than faked:
 * - `tail_deletion`: the newest commit records, deleted in the store together with their rows, leave a
 *   shorter ledger that still verifies (nothing outside the store anchors its length);
 * - `claim_lease`: one commit per position assumes a live claimant commits within `staleClaimMs`;
 * - `store_text`: the text a record carries for the store's own search (and its embedding) is not
 *   covered by any digest; search results are re-read from the verified snapshot.
 */
export const COMMIT_RECORD_LIMITS = ['tail_deletion', 'claim_lease', 'store_text'] as const;

/** One committed ingest, as its commit record says. */
interface Commit {
  ingest: string;
  position: number;
  /** `[proposition, row records]` (pairs, not an object: a proposition may be named `__proto__`). */
  rows: [string, number][];
  /** `[seq, proposition]` of every snapshot the ingest committed. */
  snapshots: [number, string][];
  entries: StoredChainEntry[];
  anchor: ChainAnchor;
  /** The ledger-entry rows the ingest appended (absent when none). */
  entry_rows?: StoredEntryRow[];
}

/** One ledger row. */
type Row = { binding: { kind: BindingKind; id: string; body: string } } | { snapshot: SnapshotRow };
/**
 * The body of a `row` record: a row that carries a claim (its own record, with the claim as text),
 * or the other rows of one proposition in one ingest, together (one store write instead of many).
 */
type RowBody = Row | { rows: Row[] };

interface PropositionRows {
  /** Bytes of the record bodies the rows were decoded from. */
  bytes: number;
  snapshots: SnapshotRow[];
  byView: Map<string, SnapshotRow>;
  bySeq: Map<number, SnapshotRow>;
  bindings: Map<string, StoredBinding>;
}

const EMPTY_ROWS: PropositionRows = { bytes: 0, snapshots: [], byView: new Map(), bySeq: new Map(), bindings: new Map() };

function parseBody<T>(record: CommitRecord): T {
  try {
    return JSON.parse(record.body) as T;
  } catch (cause) {
    throw new StoreUnavailableError('damaged', `commit record ${JSON.stringify(record.key)} has an unreadable body`, { cause });
  }
}

/** The text a binding row carries for the store's own search: the claim itself. */
function bindingText(kind: BindingKind, body: string): string | undefined {
  if (kind !== 'assertion' && kind !== 'evidence') return undefined;
  const record = JSON.parse(body) as { text?: unknown; content?: unknown };
  const text = kind === 'assertion' ? record.text : record.content;
  return typeof text === 'string' ? text : undefined;
}

/** A commit record's body as a {@link Commit} at its position in `byPosition`; two ingests at one position are damage. */
function addCommit(byPosition: Map<number, Commit>, record: CommitRecord): void {
  const position = record.position;
  if (!Number.isInteger(position) || (position as number) < 1) {
    throw new StoreUnavailableError('damaged', `commit record ${JSON.stringify(record.key)} names no commit position`);
  }
  const body = parseBody<Omit<Commit, 'ingest' | 'position'>>(record);
  const other = byPosition.get(position as number);
  if (other !== undefined && other.ingest !== record.ingest) {
    throw new StoreUnavailableError('damaged', `two ingests (${other.ingest}, ${record.ingest}) committed at position ${position}`);
  }
  byPosition.set(position as number, { ...body, ingest: record.ingest, position: position as number });
}

/**
 * Past this many commits since the state a reader holds (or since a proposition's rows were kept), one
 * listing of everything is cheaper than a listing per commit.
 */
const MAX_INGESTS_LISTED_APART = 16;

/** Bytes of decoded rows a backend keeps across reads (see {@link RowCache}). */
const ROW_CACHE_BYTES = 16 * 1024 * 1024;

/** Rows of one proposition as read at a commit position, with how many row records they came from. */
interface KeptRows {
  rows: Promise<PropositionRows>;
  count: number;
  position: number;
  bytes: number;
}

/**
 * Decoded rows of propositions, kept from one read to the next. A committed ingest's rows never
 * change, so a proposition's rows hold until a later commit adds to them; then only the rows of the
 * later ingests are listed and added ({@link CommittedState.rowsOf}). The least recently read go
 * first beyond the byte budget (the size of the records' bodies, a proxy for what their decoded rows hold).
 */
class RowCache {
  private readonly kept = new Map<string, KeptRows>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** What is kept for `pid` (now the most recently read), or undefined. */
  get(pid: string): KeptRows | undefined {
    const kept = this.kept.get(pid);
    if (kept === undefined) return undefined;
    this.forget(pid);
    this.keep(pid, kept.rows, kept.count, kept.position, kept.bytes);
    return kept;
  }

  /** Keep `rows` (`count` row records, read at commit `position`); a failed listing is forgotten. */
  set(pid: string, rows: Promise<PropositionRows>, count: number, position: number): void {
    this.forget(pid);
    this.keep(pid, rows, count, position, 0);
    rows.then(
      (built) => {
        const kept = this.kept.get(pid);
        if (kept?.rows !== rows) return;
        kept.bytes = built.bytes;
        this.bytes += built.bytes;
        this.evict();
      },
      () => {
        if (this.kept.get(pid)?.rows === rows) this.forget(pid);
      },
    );
  }

  clear(): void {
    this.kept.clear();
    this.bytes = 0;
  }

  private keep(pid: string, rows: Promise<PropositionRows>, count: number, position: number, bytes: number): void {
    this.kept.set(pid, { rows, count, position, bytes });
    this.bytes += bytes;
  }

  private forget(pid: string): void {
    const kept = this.kept.get(pid);
    if (kept === undefined) return;
    this.kept.delete(pid);
    this.bytes -= kept.bytes;
  }

  private evict(): void {
    for (const pid of this.kept.keys()) {
      if (this.bytes <= this.budget) return;
      this.forget(pid);
    }
  }
}

/** The committed ledger at one moment: commit records read eagerly, rows per proposition on demand. */
class CommittedState {
  readonly position: number;
  readonly snapshotCount: number;
  readonly anchor: ChainAnchor;
  readonly entries: StoredChainEntry[];
  readonly ingests: Map<string, Commit>;
  /** The commits, by position (index 0 is position 1). */
  private readonly commits: Commit[];
  private readonly owners = new Map<number, string>();
  private readonly rowCounts = new Map<string, number>();
  private readonly loaded = new Map<string, Promise<PropositionRows>>();
  private all: Promise<Map<string, PropositionRows>> | undefined;
  /** Every committed entry row, in chain order. */
  readonly entryRows: StoredEntryRow[];

  constructor(
    private readonly store: CommitRecordStore,
    commits: Commit[],
    private readonly cache?: RowCache,
  ) {
    this.commits = commits;
    this.ingests = new Map(commits.map((c) => [c.ingest, c]));
    this.position = commits.length;
    this.entries = commits.flatMap((c) => c.entries);
    this.entryRows = commits.flatMap((c) => (Array.isArray(c.entry_rows) ? c.entry_rows : []));
    this.anchor = commits.at(-1)?.anchor ?? EMPTY_ANCHOR;
    for (const c of commits) {
      for (const [seq, pid] of c.snapshots) this.owners.set(seq, pid);
      for (const [pid, n] of c.rows) this.rowCounts.set(pid, (this.rowCounts.get(pid) ?? 0) + n);
    }
    this.snapshotCount = this.owners.size;
  }

  static async load(store: CommitRecordStore, cache?: RowCache): Promise<CommittedState> {
    const byPosition = new Map<number, Commit>();
    for (const record of await store.list({ family: 'commit' })) addCommit(byPosition, record);
    const commits: Commit[] = [];
    for (let p = 1; p <= byPosition.size; p += 1) {
      const c = byPosition.get(p);
      if (c === undefined) throw new StoreUnavailableError('damaged', `commit position ${p} is missing (${byPosition.size} commits stored)`);
      commits.push(c);
    }
    return new CommittedState(store, commits, cache);
  }

  /** This state with `later` commits (positions position+1, …) after it; the rows kept stay kept. */
  followedBy(later: Commit[]): CommittedState {
    return new CommittedState(this.store, [...this.commits, ...later], this.cache);
  }

  /**
   * This state for another read: what the commits say is shared; the whole-ledger rows one read
   * listed are not kept for the next (rows per proposition are, in the byte-bounded cache).
   */
  forRead(): CommittedState {
    const next = Object.create(CommittedState.prototype) as CommittedState;
    return Object.assign(next, this, { all: undefined, loaded: new Map() });
  }

  owner(seq: number): string | undefined {
    return this.owners.get(seq);
  }

  propositions(): string[] {
    return [...this.rowCounts.keys()];
  }

  rowsOf(pid: string): Promise<PropositionRows> {
    if (!this.rowCounts.has(pid)) return Promise.resolve(EMPTY_ROWS);
    if (this.all !== undefined) return this.all.then((m) => m.get(pid) ?? EMPTY_ROWS);
    const count = this.rowCounts.get(pid) as number;
    const list = () =>
      this.store.list({ family: 'row', proposition: pid }).then((records) => this.build(records, new Map([[pid, count]])).get(pid) ?? EMPTY_ROWS);
    if (this.cache !== undefined) {
      const kept = this.cache.get(pid);
      if (kept !== undefined && kept.count === count) return kept.rows;
      const rows = kept !== undefined && kept.position < this.position ? this.rowsAfter(pid, kept, count, list) : list();
      this.cache.set(pid, rows, count, this.position);
      return rows;
    }
    let rows = this.loaded.get(pid);
    if (rows === undefined) {
      rows = list();
      this.loaded.set(pid, rows);
    }
    return rows;
  }

  /**
   * `kept` (read at an earlier position) and the rows the commits since then added to `pid`, listed
   * by ingest: what a read costs after a commit does not grow with the proposition's history. Many
   * commits since (or counts that do not add up) list the proposition's rows again instead.
   */
  private async rowsAfter(pid: string, kept: KeptRows, count: number, list: () => Promise<PropositionRows>): Promise<PropositionRows> {
    const later: string[] = [];
    let added = 0;
    for (const c of this.commits.slice(kept.position)) {
      const n = c.rows.find(([p]) => p === pid)?.[1];
      if (n === undefined) continue;
      later.push(c.ingest);
      added += n;
    }
    if (later.length > MAX_INGESTS_LISTED_APART || kept.count + added !== count) return list();
    // A kept listing that failed (it is being forgotten) is no base: list everything instead.
    const before = await kept.rows.catch(() => undefined);
    if (before === undefined) return list();
    const records = await Promise.all(later.map((ingest) => this.store.list({ family: 'row', ingest, proposition: pid })));
    const extra = this.build(records.flat(), new Map([[pid, added]])).get(pid) ?? EMPTY_ROWS;
    const bindings = new Map(before.bindings);
    for (const [key, b] of extra.bindings) bindings.set(key, b);
    const snapshots = [...before.snapshots, ...extra.snapshots].sort((a, b) => a.seq - b.seq);
    return {
      bytes: before.bytes + extra.bytes,
      snapshots,
      byView: new Map(snapshots.map((s) => [s.view_id, s])),
      bySeq: new Map(snapshots.map((s) => [s.seq, s])),
      bindings,
    };
  }

  allRows(): Promise<Map<string, PropositionRows>> {
    this.all ??= this.position === 0 ? Promise.resolve(new Map()) : this.store.list({ family: 'row' }).then((records) => this.build(records, this.rowCounts));
    return this.all;
  }

  private addRow(rows: PropositionRows, record: CommitRecord, pid: string, row: Row): void {
    if ('binding' in row) {
      rows.bindings.set(bindingKey(row.binding.kind, row.binding.id), { body: row.binding.body });
      return;
    }
    const s = row.snapshot;
    if (this.owners.get(s.seq) !== pid || s.proposition_id !== pid) {
      throw new StoreUnavailableError('damaged', `row ${JSON.stringify(record.key)}: snapshot #${s.seq} is not one its commit names`);
    }
    rows.snapshots.push(s);
    rows.byView.set(s.view_id, s);
    rows.bySeq.set(s.seq, s);
  }

  /** Rows of committed ingests, checked against the number of row records `expected` of each proposition. */
  private build(records: CommitRecord[], expected: ReadonlyMap<string, number>): Map<string, PropositionRows> {
    const out = new Map<string, PropositionRows>();
    const seen = new Map<string, string>();
    const counts = new Map<string, number>();
    for (const record of records) {
      const commit = this.ingests.get(record.ingest);
      if (commit === undefined) continue;
      const pid = record.proposition ?? '';
      const before = seen.get(record.key);
      if (before !== undefined) {
        if (before !== record.body) throw new StoreUnavailableError('damaged', `row ${JSON.stringify(record.key)} is stored twice with different content`);
        continue;
      }
      seen.set(record.key, record.body);
      counts.set(pid, (counts.get(pid) ?? 0) + 1);
      let rows = out.get(pid);
      if (rows === undefined) {
        rows = { bytes: 0, snapshots: [], byView: new Map(), bySeq: new Map(), bindings: new Map() };
        out.set(pid, rows);
      }
      rows.bytes += record.body.length;
      const body = parseBody<RowBody>(record);
      for (const row of 'rows' in body ? body.rows : [body]) this.addRow(rows, record, pid, row);
    }
    for (const [pid, n] of expected) {
      if ((counts.get(pid) ?? 0) !== n) {
        throw new StoreUnavailableError('damaged', `proposition ${JSON.stringify(pid)}: ${counts.get(pid) ?? 0} of ${n} committed row records are stored`);
      }
    }
    for (const rows of out.values()) rows.snapshots.sort((a, b) => a.seq - b.seq);
    return out;
  }
}

/** Rows a write added, not yet put. */
interface Overlay {
  bindings: Map<string, Map<string, Binding>>;
  snapshots: SnapshotRow[];
  entryRows: StoredEntryRow[];
  entries: StoredChainEntry[];
  anchor: ChainAnchor | undefined;
}

function reader(state: CommittedState, overlay?: Overlay): LedgerReader {
  const ownSnapshot = (pid: string, test: (s: SnapshotRow) => boolean) => overlay?.snapshots.filter((s) => s.proposition_id === pid && test(s)).at(-1);
  const copy = (s: SnapshotRow | undefined) => (s === undefined ? undefined : { ...s });
  return {
    findSnapshot: async (pid, vid) => copy(ownSnapshot(pid, (s) => s.view_id === vid) ?? (await state.rowsOf(pid)).byView.get(vid)),
    latestSnapshot: async (pid) => copy(ownSnapshot(pid, () => true) ?? (await state.rowsOf(pid)).snapshots.at(-1)),
    snapshotBySeq: async (seq) => {
      const own = overlay?.snapshots.find((s) => s.seq === seq);
      if (own !== undefined) return { ...own };
      const pid = state.owner(seq);
      return pid === undefined ? undefined : copy((await state.rowsOf(pid)).bySeq.get(seq));
    },
    bindings: async (pid, keys: readonly BindingRequest[]) => {
      const stored = (await state.rowsOf(pid)).bindings;
      const own = overlay?.bindings.get(pid);
      const out = new Map<string, StoredBinding>();
      for (const { kind, id } of keys) {
        const key = bindingKey(kind, id);
        const b = stored.get(key) ?? own?.get(key);
        if (b !== undefined) out.set(key, { body: b.body });
      }
      return out;
    },
    snapshotIds: async (pid) => (await state.rowsOf(pid)).snapshots.map((s) => ({ view_id: s.view_id, seq: s.seq })),
    latestRows: async () => {
      const all = await state.allRows();
      return [...all.values()]
        .filter((rows) => rows.snapshots.length > 0)
        .map((rows) => ({ row: { ...(rows.snapshots.at(-1) as SnapshotRow) }, snapshots: rows.snapshots.length }))
        .sort((a, b) => b.row.seq - a.row.seq);
    },
    chainAnchor: () => overlay?.anchor ?? state.anchor,
    chainTail: () => {
      const length = state.entries.length + (overlay?.entries.length ?? 0);
      const last = overlay?.entries.at(-1) ?? state.entries.at(-1);
      return last === undefined ? undefined : { index: length - 1, hash: last.hash };
    },
    chainEntries: () => state.entries.map((e) => ({ ...e })),
    allSnapshots: async function* () {
      const all = await state.allRows();
      yield* [...all.values()]
        .flatMap((rows) => rows.snapshots)
        .sort((a, b) => a.seq - b.seq)
        .map((s) => ({ ...s }));
    },
    entries: (q: EntryRowQuery) => selectEntries([...state.entryRows, ...(overlay?.entryRows ?? [])], q).map((row) => ({ ...row })),
    entryRows: (keys: readonly EntryKey[]) => {
      const wanted = new Set(keys.map((k) => entryKey(k.kind, k.id)));
      const out = new Map<string, StoredEntryRow>();
      for (const row of [...state.entryRows, ...(overlay?.entryRows ?? [])]) {
        const key = entryKey(row.kind, row.id);
        if (wanted.has(key)) out.set(key, { ...row });
      }
      return out;
    },
    allEntries: () => state.entryRows.map((row) => ({ ...row })),
    allBindings: async function* (): AsyncGenerator<StoredBindingRow> {
      for (const [pid, rows] of await state.allRows()) {
        for (const [key, b] of rows.bindings) {
          const sep = key.indexOf('\u0000');
          yield { proposition_id: pid, kind: key.slice(0, sep) as BindingKind, id: key.slice(sep + 1), body: b.body };
        }
      }
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A {@link LedgerBackend} over a {@link CommitRecordStore}: the engine's transactions as commit records. */
export class CommitRecordBackend implements LedgerBackend {
  readonly store: CommitRecordStore;
  private readonly maxAttempts: number;
  private readonly visibilityTimeoutMs: number;
  private readonly staleClaimMs: number;
  private readonly readOnly: boolean;
  /** When this writer first saw each rival claim unresolved (by claim key). */
  private readonly unresolvedSince = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly rowCache = new RowCache(ROW_CACHE_BYTES);
  /** The committed state last read: reused while no commit follows it. */
  private known: CommittedState | undefined;

  constructor(store: CommitRecordStore, options: CommitRecordBackendOptions = {}) {
    this.store = store;
    this.maxAttempts = options.maxAttempts ?? 40;
    this.visibilityTimeoutMs = options.visibilityTimeoutMs ?? 15_000;
    this.staleClaimMs = options.staleClaimMs ?? 30_000;
    this.readOnly = options.readOnly ?? false;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new InvalidArgumentError('options.maxAttempts', `must be a positive integer, got ${String(options.maxAttempts)}`);
    }
  }

  async read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    return fn(reader((await this.committed()).forRead()));
  }

  /**
   * The committed state now. Commits are immutable and fill positions 1, 2, … without gaps, so the
   * state last read still holds when the store lists no commit at the position after it: one
   * listing of at most one record instead of every commit. Later commits are listed one position at
   * a time and added; past {@link MAX_INGESTS_LISTED_APART} of them, every commit is read again (which
   * checks them all, as `verifyChain` does after {@link forgetReads}). Kept rows stay kept.
   */
  private async committed(): Promise<CommittedState> {
    const known = this.known;
    let state: CommittedState | undefined;
    if (known !== undefined) {
      const later = new Map<number, Commit>();
      for (let p = known.position + 1; later.size <= MAX_INGESTS_LISTED_APART; p += 1) {
        const records = await this.store.list({ family: 'commit', position: p });
        if (records.length === 0) break;
        for (const record of records) addCommit(later, record);
      }
      if (later.size === 0) return known;
      if (later.size <= MAX_INGESTS_LISTED_APART) state = known.followedBy([...later.values()]);
    }
    state ??= await CommittedState.load(this.store, this.rowCache);
    // A slower concurrent read may finish later with an older state: keep the longer log.
    if (this.known === undefined || this.known.position <= state.position) this.known = state;
    return state;
  }

  /** Drop what earlier reads kept (the committed state and the row cache): the next read lists every record. */
  forgetReads(): void {
    this.known = undefined;
    this.rowCache.clear();
  }

  /** Ingest ids of every committed ingest (a search narrows the store's hits to these). */
  async committedIngests(): Promise<Set<string>> {
    return new Set((await this.committed()).ingests.keys());
  }

  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) return Promise.reject(new StoreUnavailableError('read_only', 'the store was opened read-only'));
    // Writers of one process take turns; the protocol settles races with other processes and clients.
    const run = this.queue.then(() => this.attempts(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {}

  private async attempts<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      // The state a read would see (rows of committed ingests never change, so kept rows serve the
      // write too); a rival commit since shows up at the claim, and the next attempt reads it.
      const state = (await this.committed()).forRead();
      const overlay: Overlay = { bindings: new Map(), snapshots: [], entryRows: [], entries: [], anchor: undefined };
      const result = await fn(this.writer(state, overlay));
      if (overlay.snapshots.length === 0 && overlay.entries.length === 0) return result;
      if (await this.commit(state, overlay)) return result;
      if (attempt >= this.maxAttempts) {
        throw new StoreUnavailableError('busy', `commit position ${state.position + 1} stayed contended through ${attempt} attempts; nothing was committed`);
      }
      // Random backoff, growing with the attempts, so two writers that keep colliding drift apart.
      await sleep(Math.random() * Math.min(2 ** attempt, 200));
    }
  }

  private writer(state: CommittedState, overlay: Overlay): LedgerWriter {
    return {
      ...reader(state, overlay),
      insertBindings: (pid, rows) => {
        let own = overlay.bindings.get(pid);
        if (own === undefined) {
          own = new Map();
          overlay.bindings.set(pid, own);
        }
        for (const b of rows) own.set(bindingKey(b.kind, b.id), b);
      },
      insertSnapshot: (row: NewSnapshotRow) => {
        const seq = state.snapshotCount + overlay.snapshots.length + 1;
        overlay.snapshots.push({ ...row, seq });
        return seq;
      },
      insertEntries: (rows) => {
        overlay.entryRows.push(...rows.map((row) => ({ ...row })));
      },
      appendChain: (entries, anchor) => {
        overlay.entries.push(...entries.map((e) => ({ ...e })));
        overlay.anchor = anchor;
      },
    };
  }

  /** Put the overlay's rows and try to commit them at the next position; false when a rival claim won. */
  private async commit(state: CommittedState, overlay: Overlay): Promise<boolean> {
    const ingest = randomUUID();
    const rows: CommitRecord[] = [];
    const perProposition = new Map<string, number>();
    const add = (pid: string, body: RowBody, text: string | undefined) => {
      perProposition.set(pid, (perProposition.get(pid) ?? 0) + 1);
      rows.push({
        key: `${ingest}:row:${rows.length}`,
        family: 'row',
        ingest,
        proposition: pid,
        ...(text === undefined ? {} : { text }),
        body: JSON.stringify(body),
      });
    };
    const rest = new Map<string, Row[]>();
    const later = (pid: string, row: Row) => {
      const list = rest.get(pid);
      if (list === undefined) rest.set(pid, [row]);
      else list.push(row);
    };
    for (const [pid, bindings] of overlay.bindings) {
      for (const b of bindings.values()) {
        const text = bindingText(b.kind, b.body);
        const row: Row = { binding: { kind: b.kind, id: b.id, body: b.body } };
        if (text === undefined) later(pid, row);
        else add(pid, row, text);
      }
    }
    for (const snapshot of overlay.snapshots) later(snapshot.proposition_id, { snapshot });
    for (const [pid, list] of rest) add(pid, { rows: list }, undefined);
    // One put per record, never retried: a retry could store a record twice.
    for (const row of rows) await this.store.put(row);
    // An ingest of ledger entries only has no row records (its rows travel in its commit).
    if (rows.length > 0)
      await this.visible({ family: 'row', ingest }, (found) => found.length >= rows.length, `${rows.length} row records of ingest ${ingest}`);
    const position = state.position + 1;
    const claim: CommitRecord = {
      key: `${ingest}:claim:${position}`,
      family: 'claim',
      ingest,
      position,
      body: JSON.stringify({ at: new Date().toISOString() }),
    };
    await this.store.put(claim);
    let atPosition: CommitRecord[];
    try {
      // One listing of the position shows the rival claims, the withdrawals and any commit there.
      atPosition = await this.visible({ position }, (found) => found.some((r) => r.key === claim.key), `claim ${claim.key}`);
    } catch (error) {
      // Give the position back rather than leave rivals waiting for the stale-claim lease.
      await this.withdraw(ingest, position, ingest).catch(() => undefined);
      throw error;
    }
    const withdrawn = new Set(atPosition.filter((r) => r.family === 'withdrawal').map((r) => r.ingest));
    const committed = atPosition.filter((r) => r.family === 'commit');
    const rivals = atPosition.filter((r) => r.family === 'claim' && r.ingest !== ingest && !withdrawn.has(r.ingest));
    if (rivals.length > 0 || committed.length > 0 || withdrawn.has(ingest)) {
      await this.withdraw(ingest, position, ingest);
      if (committed.length === 0) await this.retireStale(rivals, position, ingest);
      return false;
    }
    const commit: CommitRecord = {
      key: `${ingest}:commit`,
      family: 'commit',
      ingest,
      position,
      body: JSON.stringify({
        rows: [...perProposition],
        snapshots: overlay.snapshots.map((s) => [s.seq, s.proposition_id]),
        entries: overlay.entries,
        anchor: overlay.anchor ?? state.anchor,
        ...(overlay.entryRows.length > 0 ? { entry_rows: overlay.entryRows } : {}),
      }),
    };
    await this.store.put(commit);
    await this.visible({ family: 'commit', ingest }, (found) => found.length > 0, `commit of ingest ${ingest}`, 'the commit may still become visible');
    return true;
  }

  private async withdraw(ingest: string, position: number, by: string): Promise<void> {
    const suffix = by === ingest ? '' : `:by:${by}`;
    await this.store.put({ key: `${ingest}:withdrawal:${position}${suffix}`, family: 'withdrawal', ingest, position, body: JSON.stringify({ by }) });
  }

  /** Withdraw, on their writers' behalf, rival claims this writer has seen unresolved for `staleClaimMs`. */
  private async retireStale(rivals: CommitRecord[], position: number, by: string): Promise<void> {
    const now = Date.now();
    for (const rival of rivals) {
      const since = this.unresolvedSince.get(rival.key);
      if (since === undefined) this.unresolvedSince.set(rival.key, now);
      else if (now - since >= this.staleClaimMs) {
        await this.withdraw(rival.ingest, position, by);
        this.unresolvedSince.delete(rival.key);
      }
    }
  }

  /** List until `done` holds (the store shows the writer's own records), bounded by the visibility timeout. */
  private async visible(
    query: CommitRecordQuery,
    done: (found: CommitRecord[]) => boolean,
    what: string,
    outcome = 'the write is not committed',
  ): Promise<CommitRecord[]> {
    const deadline = Date.now() + this.visibilityTimeoutMs;
    for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
      const found = await this.store.list(query);
      if (done(found)) return found;
      if (Date.now() >= deadline) {
        throw new StoreUnavailableError('lagging', `the store did not list ${what} within ${this.visibilityTimeoutMs} ms; ${outcome}`);
      }
      await sleep(delay);
    }
  }
}
