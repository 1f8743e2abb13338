/**
 * LedgerBackend rows on one SQLite connection (either driver of ./sqlite-driver.ts). Every write is one `BEGIN IMMEDIATE`
 * transaction (the write lock is taken before the latest snapshot is read, so concurrent appenders
 * from several processes serialize instead of losing each other); an in-process queue keeps the
 * async engine from interleaving two transactions on the one connection.
 */
import { EwpError } from '@ewp/core';
import type { ChainAnchor, StoredChainEntry } from '@ewp/canonical';
import {
  type Binding,
  type BindingKind,
  bindingKey,
  type EntryKey,
  type EntryRowQuery,
  type EntrySubjectRow,
  entryKey,
  type LedgerBackend,
  type LedgerReader,
  type LedgerWriter,
  type NewSnapshotRow,
  type SnapshotRow,
  type StoredBinding,
  type StoredEntryRow,
  StoreUnavailableError,
} from '@ewp/ledger';
import { whileBusyYielding } from './sqlite-busy.js';
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.js';

/*
 * Records are stored in pages: one `ewp_records` row per commit holds every binding that commit
 * appended, as `keys` (JSON `[[kind, id], ...]`) and `bodies` (the bodies in the same order, joined by
 * newlines: every body is JSON text, which never holds a raw newline). A batched ingest then writes one
 * row per view instead of one per record, which is most of what SQLite cost it; a read scans the
 * proposition's pages (one per commit) instead of one row per record. Ids stay bound to one content per
 * proposition: the ledger engine checks every new binding against the stored ones before it appends.
 */

/** The entries of one stored page, or undefined when the page is unreadable (damaged). */
function pageEntries(keysText: string, bodiesText: string): { keys: [BindingKind, string][]; bodies: string[] } | undefined {
  let keys: unknown;
  try {
    keys = JSON.parse(keysText);
  } catch {
    return undefined;
  }
  const bodies = bodiesText.split('\n');
  if (!Array.isArray(keys) || keys.length !== bodies.length) return undefined;
  for (const k of keys) if (!Array.isArray(k) || typeof k[0] !== 'string' || typeof k[1] !== 'string') return undefined;
  return { keys: keys as [BindingKind, string][], bodies };
}

const SNAPSHOT_COLUMNS = 'seq, owner AS proposition_id, view_id, content_digest, parent_seq, depth, head, members, record_count, assertion_texts, committed_at';

/**
 * A snapshot row from its columns in {@link SNAPSHOT_COLUMNS} order. The single-row reads fetch raw
 * arrays and build the row here: one object literal, one shape, where a driver adds the named
 * properties one by one, which shows in a warrant call's read.
 */
function snapshotRow(columns: unknown[] | undefined): SnapshotRow | undefined {
  if (columns === undefined) return undefined;
  return {
    seq: columns[0] as number,
    proposition_id: columns[1] as string,
    view_id: columns[2] as string,
    content_digest: columns[3] as string,
    parent_seq: columns[4] as number | null,
    depth: columns[5] as number,
    head: columns[6] as string,
    members: columns[7] as string,
    record_count: columns[8] as number,
    assertion_texts: columns[9] as string,
    committed_at: columns[10] as string,
  };
}

function statements(db: SqliteConnection) {
  return {
    find: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE owner = ? AND view_id = ?`).raw(),
    latest: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE owner = ? ORDER BY seq DESC LIMIT 1`).raw(),
    bySeq: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE seq = ?`).raw(),
    ancestors: db.prepare(
      `WITH RECURSIVE up(seq) AS (SELECT ? UNION ALL SELECT s.parent_seq FROM ewp_snapshots s JOIN up ON s.seq = up.seq WHERE s.parent_seq IS NOT NULL)
       SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE seq IN (SELECT seq FROM up) ORDER BY seq DESC`,
    ),
    ownerPages: db.prepare('SELECT page, keys, bodies FROM ewp_records WHERE owner = ? ORDER BY page').raw(),
    ids: db.prepare('SELECT view_id, seq FROM ewp_snapshots WHERE owner = ? ORDER BY seq'),
    latestRows: db.prepare(
      `SELECT ${SNAPSHOT_COLUMNS.replace('seq,', 's.seq,')}, c.n AS snapshots FROM ewp_snapshots s
       JOIN (SELECT owner AS o, MAX(seq) AS m, COUNT(*) AS n FROM ewp_snapshots GROUP BY owner) c ON s.seq = c.m
       ORDER BY s.seq DESC`,
    ),
    // One row of two scalar lookups: half the cost of two rows (the MCP server reads it on every call).
    anchor: db.prepare("SELECT (SELECT value FROM ewp_meta WHERE key = 'anchor_length'), (SELECT value FROM ewp_meta WHERE key = 'anchor_head')").raw(),
    tail: db.prepare('SELECT idx, hash FROM ewp_chain ORDER BY idx DESC LIMIT 1'),
    chain: db.prepare('SELECT prev_hash, event, hash FROM ewp_chain ORDER BY idx'),
    all: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots ORDER BY seq`),
    allPages: db.prepare('SELECT owner, keys, bodies FROM ewp_records ORDER BY page').raw(),
    // Of a JSON list of proposition ids, those with no snapshot and no record page (see unusedPropositions).
    unused: db
      .prepare(
        `SELECT ids.value FROM json_each(?) AS ids
         WHERE NOT EXISTS (SELECT 1 FROM ewp_snapshots WHERE owner = ids.value) AND NOT EXISTS (SELECT 1 FROM ewp_records WHERE owner = ids.value)`,
      )
      .pluck(),
    insertPage: db.prepare('INSERT INTO ewp_records (owner, keys, bodies) VALUES (?, ?, ?)'),
    insertSnapshot: db.prepare(
      `INSERT INTO ewp_snapshots (owner, view_id, content_digest, parent_seq, depth, head, members, record_count, assertion_texts, committed_at)
       VALUES (@proposition_id, @view_id, @content_digest, @parent_seq, @depth, @head, @members, @record_count, @assertion_texts, @committed_at)`,
    ),
    insertChain: db.prepare('INSERT INTO ewp_chain (idx, prev_hash, event, hash) VALUES (?, ?, ?, ?)'),
    setMeta: db.prepare('UPDATE ewp_meta SET value = ? WHERE key = ?'),
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
  };
}

/**
 * Commits made by any SQLite backend of this process. A read-only connection's shared read transaction
 * (see `SqliteLedgerBackend.joinReadRun`) starts afresh when this moves, so a read started after a
 * write of this process resolved sees that write.
 */
let processCommits = 0;

const ENTRY_COLUMNS = 'e.chain_index, e.kind, e.id, e.subjects, e.body, e.committed_at';

/** The SQL of an entry query and its parameters (the subject through its index, prefixes as ranges). */
export function entryQuerySql(q: EntryRowQuery): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  let from = 'ewp_entries e';
  if (q.subject !== undefined) {
    from = 'ewp_entry_subjects s JOIN ewp_entries e ON e.chain_index = s.chain_index';
    where.push('s.subject = ?');
    params.push(q.subject);
  }
  if (q.kinds !== undefined) {
    // An incremental read (`afterIndex`) walks the chain index from that point; on the kind's primary
    // key instead (SQLite's choice without statistics) it would read and sort every entry of the kinds,
    // a cost that grows with the ledger (a decision gate syncs on every call). `+` keeps the kind
    // terms off the index.
    // A read from the newest back (`newestFirst`, `beforeIndex`) walks it the other way, for the same reason.
    const walksChain = q.afterIndex !== undefined || q.beforeIndex !== undefined || q.newestFirst === true;
    const kind = walksChain && q.id === undefined ? '+e.kind' : 'e.kind';
    const any: string[] = [];
    if (q.kinds.length > 0) {
      any.push(`${kind} IN (${q.kinds.map(() => '?').join(', ')})`);
      params.push(...q.kinds);
    }
    for (const prefix of q.prefixes ?? []) {
      // Kinds starting with `memory.` sort from `memory.` up to `memory/` ('/' follows '.').
      any.push(`(${kind} >= ? AND ${kind} < ?)`);
      params.push(prefix, `${prefix.slice(0, -1)}/`);
    }
    where.push(any.length === 0 ? '0' : `(${any.join(' OR ')})`);
  }
  if (q.id !== undefined) {
    where.push('e.id = ?');
    params.push(q.id);
  }
  if (q.afterIndex !== undefined) {
    where.push('e.chain_index > ?');
    params.push(q.afterIndex);
  }
  if (q.beforeIndex !== undefined) {
    where.push('e.chain_index < ?');
    params.push(q.beforeIndex);
  }
  params.push(q.limit);
  // By subject, the order is the subject index's own (`s.chain_index` equals `e.chain_index`): no sort.
  const order = `${q.subject !== undefined ? 's' : 'e'}.chain_index${q.newestFirst === true ? ' DESC' : ''}`;
  const sql = `SELECT ${ENTRY_COLUMNS} FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`;
  return { sql, params };
}

/**
 * The entry statements, prepared on first use: a ledger made before entries, opened read-only, has no
 * entry tables (a writable open adds them), and reads no entries.
 */
class EntryStatements {
  private prepared: ReturnType<EntryStatements['prepare']> | undefined;
  private readonly queries = new Map<string, SqliteStatement>();

  constructor(private readonly db: SqliteConnection) {}

  private prepare() {
    const db = this.db;
    return {
      byKey: db.prepare('SELECT chain_index, kind, id, subjects, body, committed_at FROM ewp_entries WHERE kind = ? AND id = ?'),
      all: db.prepare('SELECT chain_index, kind, id, subjects, body, committed_at FROM ewp_entries ORDER BY chain_index'),
      allSubjects: db.prepare('SELECT chain_index, subject FROM ewp_entry_subjects'),
      insert: db.prepare(
        'INSERT INTO ewp_entries (kind, id, chain_index, subjects, body, committed_at) VALUES (@kind, @id, @chain_index, @subjects, @body, @committed_at)',
      ),
      insertSubject: db.prepare('INSERT INTO ewp_entry_subjects (subject, chain_index) VALUES (?, ?)'),
    };
  }

  /** The statements, or undefined while the ledger has no entry tables. */
  get(): ReturnType<EntryStatements['prepare']> | undefined {
    if (this.prepared === undefined) {
      const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ewp_entries'").get();
      if (exists === undefined) return undefined;
      this.prepared = this.prepare();
    }
    return this.prepared;
  }

  /** Rows of a query (its statement kept per SQL text: queries repeat their shape). */
  select(q: EntryRowQuery): StoredEntryRow[] {
    if (this.get() === undefined) return [];
    const { sql, params } = entryQuerySql(q);
    let statement = this.queries.get(sql);
    if (statement === undefined) {
      if (this.queries.size >= 64) this.queries.clear();
      statement = this.db.prepare(sql);
      this.queries.set(sql, statement);
    }
    return statement.all(...params) as StoredEntryRow[];
  }
}

export class SqliteLedgerBackend implements LedgerBackend {
  private readonly db: SqliteConnection;
  private readonly readOnly: boolean;
  private readonly s: ReturnType<typeof statements>;
  private queue: Promise<unknown> = Promise.resolve();
  /** Reads and writes queued on this connection and not yet settled. */
  private queued = 0;
  private readonly settled = (): void => {
    this.queued -= 1;
    if (this.queued === 0) this.endReadRun();
  };
  /** `processCommits` when this connection's shared read transaction began; undefined when none is open. */
  private readRunSince: number | undefined;
  private readonly reader: LedgerReader;
  private readonly entries: EntryStatements;

  private readonly busyTimeoutMs: number;

  constructor(db: SqliteConnection, readOnly: boolean, busyTimeoutMs: number) {
    this.db = db;
    this.busyTimeoutMs = busyTimeoutMs;
    this.readOnly = readOnly;
    this.s = statements(db);
    const s = this.s;
    const e = new EntryStatements(db);
    this.entries = e;
    this.reader = {
      findSnapshot: (pid, vid) => snapshotRow(s.find.get(pid, vid) as unknown[] | undefined),
      latestSnapshot: (pid) => snapshotRow(s.latest.get(pid) as unknown[] | undefined),
      snapshotBySeq: (seq) => snapshotRow(s.bySeq.get(seq) as unknown[] | undefined),
      snapshotAncestors: (row) => s.ancestors.all(row.parent_seq) as SnapshotRow[],
      // Every binding of the proposition (the contract allows more than the requested keys).
      bindings: (pid) => {
        const out = new Map<string, StoredBinding>();
        // `all`, not `iterate`: a proposition has a page per commit, and an iterator costs more than the array.
        for (const [page, keysText, bodiesText] of s.ownerPages.all(pid) as [number, string, string][]) {
          const entries = pageEntries(keysText, bodiesText);
          if (entries === undefined) throw new StoreUnavailableError('damaged', `record page ${page} of ${JSON.stringify(pid)} is unreadable`);
          const { keys, bodies } = entries;
          for (let i = 0; i < keys.length; i += 1) {
            const [kind, id] = keys[i] as [BindingKind, string];
            out.set(bindingKey(kind, id), { body: bodies[i] as string });
          }
        }
        return out;
      },
      snapshotIds: (pid) => s.ids.all(pid) as { view_id: string; seq: number }[],
      latestRows: () => (s.latestRows.all() as (SnapshotRow & { snapshots: number })[]).map(({ snapshots, ...row }) => ({ row, snapshots })),
      chainAnchor: (): ChainAnchor => {
        const [lengthText, head] = s.anchor.get() as [string | null, string | null];
        const length = lengthText === null ? Number.NaN : Number(lengthText);
        if (!Number.isSafeInteger(length) || length < 0 || typeof head !== 'string') {
          throw new StoreUnavailableError('damaged', 'the event-log anchor is missing or unreadable');
        }
        return { length, head_hash: head };
      },
      chainTail: () => {
        const row = s.tail.get() as { idx: number; hash: string } | undefined;
        return row === undefined ? undefined : { index: row.idx, hash: row.hash };
      },
      chainEntries: () => s.chain.iterate() as IterableIterator<StoredChainEntry>,
      allSnapshots: () => s.all.all() as SnapshotRow[],
      entries: (q) => e.select(q),
      entryRows: (keys: readonly EntryKey[]) => {
        const out = new Map<string, StoredEntryRow>();
        const statements = e.get();
        if (statements === undefined) return out;
        for (const { kind, id } of keys) {
          const row = statements.byKey.get(kind, id) as StoredEntryRow | undefined;
          if (row !== undefined) out.set(entryKey(kind, id), row);
        }
        return out;
      },
      allEntries: () => (e.get()?.all.iterate() ?? []) as Iterable<StoredEntryRow>,
      allEntrySubjects: () => (e.get()?.allSubjects.iterate() ?? []) as Iterable<EntrySubjectRow>,
      allBindings: function* () {
        for (const [owner, keysText, bodiesText] of s.allPages.iterate() as IterableIterator<[string, string, string]>) {
          // An unreadable page yields nothing: the records its event appended are then reported missing.
          const entries = pageEntries(keysText, bodiesText);
          if (entries === undefined) continue;
          for (let i = 0; i < entries.keys.length; i += 1) {
            const [kind, id] = entries.keys[i] as [BindingKind, string];
            yield { proposition_id: owner, kind, id, body: entries.bodies[i] as string };
          }
        }
      },
    };
  }

  async read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    // Reads queue behind this connection's writes so they never observe a half-written transaction.
    return this.enqueue(() => {
      if (this.readOnly) this.joinReadRun();
      return fn(this.reader);
    });
  }

  /**
   * A read-only connection runs reads queued back to back in one read transaction, ended as soon as
   * the queue empties: a statement outside a transaction takes and drops SQLite's shared locks on its
   * own, which costs more than an indexed read itself. Such a run is over before the next I/O callback
   * (reads never wait on I/O), so every read in it was issued before it began, and a read issued after
   * any commit it could know of (a later callback, or a write of this process, see `processCommits`)
   * starts a new transaction. (A writable connection keeps autocommit reads: its writes take the lock.)
   */
  private joinReadRun(): void {
    if (this.readRunSince !== undefined) {
      if (this.readRunSince === processCommits) return;
      this.endReadRun();
      if (this.readRunSince !== undefined) return;
    }
    // A transaction the caller opened on the handle itself is left alone.
    if (this.db.inTransaction) return;
    this.db.exec('BEGIN');
    this.readRunSince = processCommits;
  }

  private endReadRun(): void {
    if (this.readRunSince === undefined) return;
    try {
      if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
      this.readRunSince = undefined;
    } catch {
      // A statement still iterating keeps the connection busy; the next read or the end of the queue tries again.
    }
  }

  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) return Promise.reject(new StoreUnavailableError('read_only', 'the SQLite ledger was opened read-only'));
    return this.enqueue(async () => {
      const s = this.s;
      /** The anchor appends moved, written to `ewp_meta` once, just before COMMIT (the same transaction). */
      let anchorToWrite: ChainAnchor | undefined;
      const writer: LedgerWriter = {
        ...this.reader,
        chainAnchor: () => anchorToWrite ?? this.reader.chainAnchor(),
        unusedPropositions: (ids) => new Set(s.unused.all(JSON.stringify(ids)) as string[]),
        insertBindings: (pid: string, rows: readonly Binding[]) => {
          if (rows.length === 0) return;
          const keys = new Array<[BindingKind, string]>(rows.length);
          const bodies = new Array<string>(rows.length);
          for (let i = 0; i < rows.length; i += 1) {
            const b = rows[i] as Binding;
            keys[i] = [b.kind, b.id];
            bodies[i] = b.body;
          }
          const text = bodies.join('\n');
          // Exactly the separators: a body with a raw newline (impossible for the engine's JSON bodies) is
          // refused rather than stored as an ambiguous page. Counted on the joined text, one scan.
          let newlines = 0;
          for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) newlines += 1;
          if (newlines !== rows.length - 1) {
            const b = rows.find((r) => r.body.includes('\n')) as Binding;
            throw new EwpError('EWP_REFUSE_UNSTORABLE_TEXT', 'a stored body may not contain a raw newline', { path: `${b.kind} ${JSON.stringify(b.id)}` });
          }
          s.insertPage.run(pid, JSON.stringify(keys), text);
        },
        insertSnapshot: (row: NewSnapshotRow) => Number(s.insertSnapshot.run(row).lastInsertRowid),
        insertEntries: (rows: readonly StoredEntryRow[]) => {
          const statements = this.entries.get();
          if (statements === undefined) throw new StoreUnavailableError('damaged', 'the ledger has no entry tables (a writable open adds them)');
          for (const row of rows) {
            statements.insert.run(row);
            for (const subject of new Set(JSON.parse(row.subjects) as string[])) statements.insertSubject.run(subject, row.chain_index);
          }
        },
        appendChain: (entries: readonly StoredChainEntry[], anchor: ChainAnchor) => {
          let idx = anchor.length - entries.length;
          for (const e of entries) {
            s.insertChain.run(idx, e.prev_hash, e.event, e.hash);
            idx += 1;
          }
          anchorToWrite = anchor;
        },
      };
      await this.beginImmediate();
      try {
        const result = await fn(writer);
        if (anchorToWrite !== undefined) {
          s.setMeta.run(String(anchorToWrite.length), 'anchor_length');
          s.setMeta.run(anchorToWrite.head_hash, 'anchor_head');
        }
        this.db.exec('COMMIT');
        processCommits += 1;
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /** `BEGIN IMMEDIATE`, retried while busy until the deadline, yielding between tries ({@link whileBusyYielding}). */
  private async beginImmediate(): Promise<void> {
    try {
      await whileBusyYielding(() => this.db.exec('BEGIN IMMEDIATE'), this.busyTimeoutMs);
    } catch (cause) {
      throw new StoreUnavailableError('busy', `could not take the SQLite write lock: ${(cause as Error).message}`, { cause });
    }
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const run = this.queue.then(fn);
    this.queue = run.then(this.settled, this.settled);
    return run;
  }

  /**
   * SQLite's `data_version`: it changes when another connection commits to the file, from this
   * process or another (our own commits leave it; the engine counts those).
   */
  othersCommits(): number {
    return this.s.dataVersion.get() as number;
  }

  async close(): Promise<void> {
    await this.queue;
    this.db.close();
  }
}
