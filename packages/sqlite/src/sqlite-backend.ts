/**
 * LedgerBackend rows on one better-sqlite3 connection. Every write is one `BEGIN IMMEDIATE`
 * transaction (the write lock is taken before the latest snapshot is read, so concurrent appenders
 * from several processes serialize instead of losing each other); an in-process queue keeps the
 * async engine from interleaving two transactions on the one connection.
 */
import {
  type Binding,
  type BindingRequest,
  bindingKey,
  type ChainAnchor,
  type LedgerBackend,
  type LedgerReader,
  type LedgerWriter,
  type NewSnapshotRow,
  type SnapshotRow,
  type StoredBinding,
  type StoredBindingRow,
  type StoredChainEntry,
  StoreUnavailableError,
} from '@ewp/ledger';
import type Database from 'better-sqlite3';

/**
 * Rows per multi-row binding INSERT: one native call per page instead of per record (a large part of
 * ingest time was the per-call cost). 256 x 4 parameters stays far below SQLite's variable limit.
 * Binding rows hold no digest (the engine recomputes one from the body when it needs it): smaller
 * rows are most of what a batched ingest pays SQLite.
 */
const BINDINGS_PER_INSERT = 256;

const SNAPSHOT_COLUMNS =
  'seq, owner AS proposition_id, view_id, content_digest, parent_seq, depth, head, members, record_count, assertion_texts, committed_at';

function statements(db: Database.Database) {
  return {
    find: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE owner = ? AND view_id = ?`),
    latest: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE owner = ? ORDER BY seq DESC LIMIT 1`),
    bySeq: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE seq = ?`),
    ancestors: db.prepare(
      `WITH RECURSIVE up(seq) AS (SELECT ? UNION ALL SELECT s.parent_seq FROM ewp_snapshots s JOIN up ON s.seq = up.seq WHERE s.parent_seq IS NOT NULL)
       SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots WHERE seq IN (SELECT seq FROM up) ORDER BY seq DESC`,
    ),
    binding: db.prepare('SELECT body FROM ewp_bindings WHERE owner = ? AND kind = ? AND id = ?'),
    // The map key (`kind \0 id`, see bindingKey) built by SQLite: one string per row instead of two plus a concat.
    ownerBindings: db.prepare('SELECT kind || char(0) || id, body FROM ewp_bindings WHERE owner = ?').raw(),
    ids: db.prepare('SELECT view_id, seq FROM ewp_snapshots WHERE owner = ? ORDER BY seq'),
    latestRows: db.prepare(
      `SELECT ${SNAPSHOT_COLUMNS.replace('seq,', 's.seq,')}, c.n AS snapshots FROM ewp_snapshots s
       JOIN (SELECT owner AS o, MAX(seq) AS m, COUNT(*) AS n FROM ewp_snapshots GROUP BY owner) c ON s.seq = c.m
       ORDER BY s.seq DESC`,
    ),
    anchor: db.prepare("SELECT key, value FROM ewp_meta WHERE key IN ('anchor_length', 'anchor_head')"),
    tail: db.prepare('SELECT idx, hash FROM ewp_chain ORDER BY idx DESC LIMIT 1'),
    chain: db.prepare('SELECT prev_hash, event, hash FROM ewp_chain ORDER BY idx'),
    all: db.prepare(`SELECT ${SNAPSHOT_COLUMNS} FROM ewp_snapshots ORDER BY seq`),
    allBindings: db.prepare('SELECT owner AS proposition_id, kind, id, body FROM ewp_bindings'),
    insertBinding: db.prepare('INSERT INTO ewp_bindings (owner, kind, id, body) VALUES (?, ?, ?, ?)'),
    insertBindingsPage: db.prepare(
      `INSERT INTO ewp_bindings (owner, kind, id, body) VALUES ${Array(BINDINGS_PER_INSERT).fill('(?, ?, ?, ?)').join(', ')}`,
    ),
    insertSnapshot: db.prepare(
      `INSERT INTO ewp_snapshots (owner, view_id, content_digest, parent_seq, depth, head, members, record_count, assertion_texts, committed_at)
       VALUES (@proposition_id, @view_id, @content_digest, @parent_seq, @depth, @head, @members, @record_count, @assertion_texts, @committed_at)`,
    ),
    insertChain: db.prepare('INSERT INTO ewp_chain (idx, prev_hash, event, hash) VALUES (?, ?, ?, ?)'),
    setMeta: db.prepare('UPDATE ewp_meta SET value = ? WHERE key = ?'),
  };
}

const SLEEP = new Int32Array(new SharedArrayBuffer(4));

export class SqliteLedgerBackend implements LedgerBackend {
  private readonly db: Database.Database;
  private readonly readOnly: boolean;
  private readonly s: ReturnType<typeof statements>;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly reader: LedgerReader;

  private readonly busyTimeoutMs: number;

  constructor(db: Database.Database, readOnly: boolean, busyTimeoutMs: number) {
    this.db = db;
    this.busyTimeoutMs = busyTimeoutMs;
    this.readOnly = readOnly;
    this.s = statements(db);
    const s = this.s;
    this.reader = {
      findSnapshot: (pid, vid) => s.find.get(pid, vid) as SnapshotRow | undefined,
      latestSnapshot: (pid) => s.latest.get(pid) as SnapshotRow | undefined,
      snapshotBySeq: (seq) => s.bySeq.get(seq) as SnapshotRow | undefined,
      snapshotAncestors: (row) => s.ancestors.all(row.parent_seq) as SnapshotRow[],
      bindings: (pid, keys: readonly BindingRequest[]) => {
        const out = new Map<string, StoredBinding>();
        if (keys.length < 64) {
          for (const { kind, id } of keys) {
            const row = s.binding.get(pid, kind, id) as StoredBinding | undefined;
            if (row !== undefined) out.set(bindingKey(kind, id), row);
          }
          return out;
        }
        // Many keys: one range scan of the proposition's bindings (a prefix of the primary key) beats
        // a probe per key; a new proposition costs nothing. Unrequested rows may stay in the map (the
        // contract allows it), which spares a filter set built from every requested key.
        for (const [key, body] of s.ownerBindings.all(pid) as [string, string][]) out.set(key, { body });
        return out;
      },
      snapshotIds: (pid) => s.ids.all(pid) as { view_id: string; seq: number }[],
      latestRows: () =>
        (s.latestRows.all() as (SnapshotRow & { snapshots: number })[]).map(({ snapshots, ...row }) => ({ row, snapshots })),
      chainAnchor: (): ChainAnchor => {
        const rows = s.anchor.all() as { key: string; value: string }[];
        const length = Number(rows.find((r) => r.key === 'anchor_length')?.value);
        const head = rows.find((r) => r.key === 'anchor_head')?.value;
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
      allBindings: () => s.allBindings.iterate() as IterableIterator<StoredBindingRow>,
    };
  }

  async read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    // Reads queue behind this connection's writes so they never observe a half-written transaction.
    return this.enqueue(() => fn(this.reader));
  }

  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) return Promise.reject(new StoreUnavailableError('read_only', 'the SQLite ledger was opened read-only'));
    return this.enqueue(async () => {
      const s = this.s;
      const writer: LedgerWriter = {
        ...this.reader,
        insertBindings: (pid: string, rows: readonly Binding[]) => {
          let i = 0;
          if (rows.length >= BINDINGS_PER_INSERT) {
            const params: string[] = new Array(BINDINGS_PER_INSERT * 4);
            for (; i + BINDINGS_PER_INSERT <= rows.length; i += BINDINGS_PER_INSERT) {
              for (let k = 0; k < BINDINGS_PER_INSERT; k += 1) {
                const b = rows[i + k] as Binding;
                params[k * 4] = pid;
                params[k * 4 + 1] = b.kind;
                params[k * 4 + 2] = b.id;
                params[k * 4 + 3] = b.body;
              }
              s.insertBindingsPage.run(params);
            }
          }
          for (; i < rows.length; i += 1) {
            const b = rows[i] as Binding;
            s.insertBinding.run(pid, b.kind, b.id, b.body);
          }
        },
        insertSnapshot: (row: NewSnapshotRow) => Number(s.insertSnapshot.run(row).lastInsertRowid),
        appendChain: (entries: readonly StoredChainEntry[], anchor: ChainAnchor) => {
          let idx = anchor.length - entries.length;
          for (const e of entries) {
            s.insertChain.run(idx, e.prev_hash, e.event, e.hash);
            idx += 1;
          }
          s.setMeta.run(String(anchor.length), 'anchor_length');
          s.setMeta.run(anchor.head_hash, 'anchor_head');
        },
      };
      this.beginImmediate();
      try {
        const result = await fn(writer);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * `BEGIN IMMEDIATE`, retried every millisecond until the deadline. SQLite's own busy handler backs
   * off to 100 ms sleeps, so under contention waiters miss most free windows; short polls keep several
   * appending processes moving.
   */
  private beginImmediate(): void {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (;;) {
      try {
        this.db.exec('BEGIN IMMEDIATE');
        return;
      } catch (cause) {
        const code = (cause as { code?: string }).code;
        if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_BUSY_SNAPSHOT') || Date.now() >= deadline) {
          throw new StoreUnavailableError('busy', `could not take the SQLite write lock: ${(cause as Error).message}`, { cause });
        }
        Atomics.wait(SLEEP, 0, 0, 1);
      }
    }
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    this.db.close();
  }
}
