/**
 * LedgerBackend rows in PostgreSQL. A write is one transaction that first locks the anchor row
 * (`SELECT … FOR UPDATE`): every write appends to the one event log, so writers from any number of
 * processes and machines serialize on it, and everything they read afterwards (READ COMMITTED) is
 * the latest committed state.
 */
import type { ChainAnchor, StoredChainEntry } from '@ewp/canonical';
import {
  type Binding,
  type BindingKind,
  type BindingRequest,
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
import { EwpError } from '@ewp/core';
import type pg from 'pg';
import type { CommitListener } from './postgres-listener.js';
import { hasEntryTables, ident } from './postgres-schema.js';

const PAGE = 5000;

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

interface RawSnapshot extends Omit<SnapshotRow, 'seq' | 'parent_seq'> {
  seq: string;
  parent_seq: string | null;
}

function toRow(r: RawSnapshot): SnapshotRow {
  return { ...r, seq: Number(r.seq), parent_seq: r.parent_seq === null ? null : Number(r.parent_seq) };
}

function anchorOf(rows: readonly { key: string; value: string }[]): ChainAnchor {
  const length = Number(rows.find((r) => r.key === 'anchor_length')?.value);
  const head = rows.find((r) => r.key === 'anchor_head')?.value;
  if (!Number.isSafeInteger(length) || length < 0 || typeof head !== 'string') {
    throw new StoreUnavailableError('damaged', 'the event-log anchor is missing or unreadable');
  }
  return { length, head_hash: head };
}

interface RawEntry extends Omit<StoredEntryRow, 'chain_index'> {
  chain_index: string;
}

const toEntry = (r: RawEntry): StoredEntryRow => ({ ...r, chain_index: Number(r.chain_index) });

const ENTRY_COLUMNS = 'e.chain_index, e.kind, e.id, e.subjects, e.body, e.committed_at';

/** The SQL of an entry query and its parameters (the subject through its index). */
export function entryQuerySql(q: EntryRowQuery, t: (name: string) => string): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  let from = `${t('entries')} e`;
  if (q.subject !== undefined) {
    from = `${t('entry_subjects')} s JOIN ${t('entries')} e ON e.chain_index = s.chain_index`;
    where.push(`s.subject = ${p(q.subject)}`);
  }
  if (q.kinds !== undefined) {
    const any: string[] = [];
    if (q.kinds.length > 0) any.push(`e.kind = ANY(${p(q.kinds)}::text[])`);
    // starts_with, not a range: text order follows the collation.
    for (const prefix of q.prefixes ?? []) any.push(`starts_with(e.kind, ${p(prefix)})`);
    where.push(any.length === 0 ? 'false' : `(${any.join(' OR ')})`);
  }
  if (q.id !== undefined) where.push(`e.id = ${p(q.id)}`);
  if (q.afterIndex !== undefined) where.push(`e.chain_index > ${p(q.afterIndex)}`);
  if (q.beforeIndex !== undefined) where.push(`e.chain_index < ${p(q.beforeIndex)}`);
  // By subject, the order is the subject index's own (`s.chain_index` equals `e.chain_index`).
  const order = `${q.subject !== undefined ? 's' : 'e'}.chain_index${q.newestFirst === true ? ' DESC' : ''}`;
  const sql = `SELECT ${ENTRY_COLUMNS} FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${p(q.limit)}`;
  return { sql, params };
}

/**
 * `entries`: whether the ledger has its entry tables (a ledger made before entries, opened read-only,
 * has none and reads no entries).
 */
function makeReader(db: Queryable, schema: string, entries: () => Promise<boolean>): LedgerReader {
  const t = (name: string) => `${ident(schema)}.${name}`;
  const cols = 'seq, owner AS proposition_id, view_id, content_digest, parent_seq, depth, head, members, record_count, assertion_texts, committed_at';
  const one = async (sql: string, params: unknown[]) => {
    const r = await db.query(sql, params);
    return r.rows[0] === undefined ? undefined : toRow(r.rows[0] as RawSnapshot);
  };
  return {
    findSnapshot: (pid, vid) => one(`SELECT ${cols} FROM ${t('snapshots')} WHERE owner = $1 AND view_id = $2`, [pid, vid]),
    latestSnapshot: (pid) => one(`SELECT ${cols} FROM ${t('snapshots')} WHERE owner = $1 ORDER BY seq DESC LIMIT 1`, [pid]),
    snapshotBySeq: (seq) => one(`SELECT ${cols} FROM ${t('snapshots')} WHERE seq = $1`, [seq]),
    snapshotAncestors: async (row) => {
      const r = await db.query(
        `WITH RECURSIVE up AS (
           SELECT * FROM ${t('snapshots')} WHERE seq = $1
           UNION ALL
           SELECT s.* FROM ${t('snapshots')} s JOIN up ON s.seq = up.parent_seq
         ) SELECT ${cols} FROM up ORDER BY seq DESC`,
        [row.parent_seq],
      );
      return (r.rows as RawSnapshot[]).map(toRow);
    },
    bindings: async (pid, keys: readonly BindingRequest[]) => {
      const out = new Map<string, StoredBinding>();
      if (keys.length === 0) return out;
      const r = await db.query(
        `SELECT b.kind, b.id, b.body FROM unnest($2::text[], $3::text[]) AS k(kind, id)
         JOIN ${t('bindings')} AS b ON b.owner = $1 AND b.kind = k.kind AND b.id = k.id`,
        [pid, keys.map((k) => k.kind), keys.map((k) => k.id)],
      );
      for (const row of r.rows as { kind: BindingKind; id: string; body: string }[]) {
        out.set(bindingKey(row.kind, row.id), { body: row.body });
      }
      return out;
    },
    snapshotIds: async (pid) =>
      ((await db.query(`SELECT view_id, seq FROM ${t('snapshots')} WHERE owner = $1 ORDER BY seq`, [pid])).rows as { view_id: string; seq: string }[]).map(
        (r) => ({ view_id: r.view_id, seq: Number(r.seq) }),
      ),
    latestRows: async () => {
      const r = await db.query(
        `SELECT ${cols.replace('seq,', 's.seq,')}, c.n AS snapshots FROM ${t('snapshots')} s
         JOIN (SELECT owner AS o, MAX(seq) AS m, COUNT(*) AS n FROM ${t('snapshots')} GROUP BY owner) c ON s.seq = c.m
         ORDER BY s.seq DESC`,
      );
      return (r.rows as (RawSnapshot & { snapshots: string })[]).map(({ snapshots, ...row }) => ({ row: toRow(row), snapshots: Number(snapshots) }));
    },
    chainAnchor: async (): Promise<ChainAnchor> =>
      anchorOf((await db.query(`SELECT key, value FROM ${t('meta')} WHERE key IN ('anchor_length', 'anchor_head')`)).rows as { key: string; value: string }[]),
    chainTail: async () => {
      const row = (await db.query(`SELECT idx, hash FROM ${t('chain')} ORDER BY idx DESC LIMIT 1`)).rows[0] as { idx: string; hash: string } | undefined;
      return row === undefined ? undefined : { index: Number(row.idx), hash: row.hash };
    },
    chainEntries: async function* () {
      let after = -1;
      for (;;) {
        const rows = (await db.query(`SELECT idx, prev_hash, event, hash FROM ${t('chain')} WHERE idx > $1 ORDER BY idx LIMIT ${PAGE}`, [after]))
          .rows as (StoredChainEntry & { idx: string })[];
        for (const { idx: _idx, ...entry } of rows) yield entry;
        if (rows.length < PAGE) return;
        after = Number(rows.at(-1)?.idx);
      }
    },
    allSnapshots: async function* () {
      let after = 0;
      for (;;) {
        const rows = (await db.query(`SELECT ${cols} FROM ${t('snapshots')} WHERE seq > $1 ORDER BY seq LIMIT ${PAGE}`, [after])).rows as RawSnapshot[];
        for (const row of rows) yield toRow(row);
        if (rows.length < PAGE) return;
        after = Number(rows.at(-1)?.seq);
      }
    },
    entries: async (q) => {
      if (!(await entries())) return [];
      const { sql, params } = entryQuerySql(q, t);
      return ((await db.query(sql, params)).rows as RawEntry[]).map(toEntry);
    },
    entryRows: async (keys: readonly EntryKey[]) => {
      const out = new Map<string, StoredEntryRow>();
      if (keys.length === 0 || !(await entries())) return out;
      const r = await db.query(
        `SELECT ${ENTRY_COLUMNS} FROM unnest($1::text[], $2::text[]) AS k(kind, id) JOIN ${t('entries')} e ON e.kind = k.kind AND e.id = k.id`,
        [keys.map((k) => k.kind), keys.map((k) => k.id)],
      );
      for (const row of r.rows as RawEntry[]) out.set(entryKey(row.kind, row.id), toEntry(row));
      return out;
    },
    allEntries: async function* () {
      if (!(await entries())) return;
      let after = -1;
      for (;;) {
        // Pages by chain index; rows sharing one (only a tampered ledger has them) come in one page.
        const rows = (
          await db.query(
            `SELECT ${ENTRY_COLUMNS} FROM ${t('entries')} e WHERE e.chain_index > $1 AND e.chain_index <= (
               SELECT COALESCE(MAX(chain_index), $1) FROM (SELECT chain_index FROM ${t('entries')} WHERE chain_index > $1 ORDER BY chain_index LIMIT ${PAGE}) x
             ) ORDER BY e.chain_index`,
            [after],
          )
        ).rows as RawEntry[];
        for (const row of rows) yield toEntry(row);
        if (rows.length === 0) return;
        after = Number(rows.at(-1)?.chain_index);
      }
    },
    allEntrySubjects: async function* () {
      if (!(await entries())) return;
      const rows = (await db.query(`SELECT chain_index, subject FROM ${t('entry_subjects')}`)).rows as { chain_index: string; subject: string }[];
      for (const row of rows) yield { chain_index: Number(row.chain_index), subject: row.subject } satisfies EntrySubjectRow;
    },
    allBindings: async function* () {
      let last: [string, string, string] = ['', '', ''];
      let first = true;
      for (;;) {
        const rows = (
          await db.query(
            `SELECT owner AS proposition_id, kind, id, body FROM ${t('bindings')}
             WHERE $4 OR (owner, kind, id) > ($1, $2, $3) ORDER BY owner, kind, id LIMIT ${PAGE}`,
            [...last, first],
          )
        ).rows as { proposition_id: string; kind: BindingKind; id: string; body: string }[];
        first = false;
        yield* rows;
        if (rows.length < PAGE) return;
        const tail = rows.at(-1) as (typeof rows)[number];
        last = [tail.proposition_id, tail.kind, tail.id];
      }
    },
  };
}

export class PostgresLedgerBackend implements LedgerBackend {
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly readOnly: boolean;
  private readonly ownsPool: boolean;
  private readonly listener: CommitListener;
  /** Set once the entry tables are seen (they are never dropped). */
  private entryTables = false;

  constructor(pool: pg.Pool, schema: string, readOnly: boolean, ownsPool: boolean, listener: CommitListener) {
    this.pool = pool;
    this.schema = schema;
    this.readOnly = readOnly;
    this.ownsPool = ownsPool;
    this.listener = listener;
  }

  /** The count of commit notifications while the listener is confirmed; else nothing (read the chain head). */
  othersCommits(): Promise<string | undefined> | undefined {
    return this.listener.commits();
  }

  async read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    // One connection and one REPEATABLE READ snapshot, so a multi-query read sees one consistent state.
    const client = await this.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await fn(makeReader(client, this.schema, () => this.hasEntries(client)));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw typedStoreError(error);
    } finally {
      client.release();
    }
  }

  async write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    if (this.readOnly) throw new StoreUnavailableError('read_only', 'the PostgreSQL ledger was opened read-only');
    const client = await this.connect();
    const t = (name: string) => `${ident(this.schema)}.${name}`;
    try {
      await client.query('BEGIN');
      // The write lock: every writer of this ledger queues here, in any process on any machine. The locked
      // rows are the anchor, so the transaction reads it here and keeps it current as it appends.
      // ORDER BY: rows are locked in the sorted order, the same in every writer. Without it the order
      // follows the scan (which changes as the rows are updated), and two writers could each hold one row
      // and wait for the other: a deadlock seen under the 4-process append test.
      const locked = (await client.query(`SELECT key, value FROM ${t('meta')} WHERE key IN ('anchor_length', 'anchor_head') ORDER BY key FOR UPDATE`)).rows as {
        key: string;
        value: string;
      }[];
      const reader = makeReader(client, this.schema, () => this.hasEntries(client));
      let anchor = anchorOf(locked);
      const writer: LedgerWriter = {
        ...reader,
        chainAnchor: () => anchor,
        insertBindings: async (pid: string, rows: readonly Binding[]) => {
          for (let i = 0; i < rows.length; i += PAGE) {
            const page = rows.slice(i, i + PAGE);
            await client.query(
              `INSERT INTO ${t('bindings')} (owner, kind, id, body)
               SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])`,
              [pid, page.map((b) => b.kind), page.map((b) => b.id), page.map((b) => b.body)],
            );
          }
        },
        insertSnapshot: async (row: NewSnapshotRow) => {
          const r = await client.query(
            `INSERT INTO ${t('snapshots')} (owner, view_id, content_digest, parent_seq, depth, head, members, record_count, assertion_texts, committed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq`,
            [
              row.proposition_id,
              row.view_id,
              row.content_digest,
              row.parent_seq,
              row.depth,
              row.head,
              row.members,
              row.record_count,
              row.assertion_texts,
              row.committed_at,
            ],
          );
          return Number((r.rows[0] as { seq: string }).seq);
        },
        insertEntries: async (rows: readonly StoredEntryRow[]) => {
          if (rows.length === 0) return;
          const subjects = rows.flatMap((row) => [...new Set(JSON.parse(row.subjects) as string[])].map((subject) => [subject, row.chain_index] as const));
          await client.query(
            `WITH rows AS (
               INSERT INTO ${t('entries')} (kind, id, chain_index, subjects, body, committed_at)
               SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])
               RETURNING 1
             )
             INSERT INTO ${t('entry_subjects')} (subject, chain_index) SELECT * FROM unnest($7::text[], $8::bigint[])`,
            [
              rows.map((r) => r.kind),
              rows.map((r) => r.id),
              rows.map((r) => r.chain_index),
              rows.map((r) => r.subjects),
              rows.map((r) => r.body),
              rows.map((r) => r.committed_at),
              subjects.map(([s]) => s),
              subjects.map(([, i]) => i),
            ],
          );
        },
        appendChain: async (entries: readonly StoredChainEntry[], next: ChainAnchor) => {
          const first = next.length - entries.length;
          // One round trip: the entries and the new anchor.
          await client.query(
            `WITH appended AS (
               INSERT INTO ${t('chain')} (idx, prev_hash, event, hash)
               SELECT $1::bigint + o - 1, p, e, h FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(p, e, h, o)
               RETURNING 1
             )
             UPDATE ${t('meta')} SET value = CASE key WHEN 'anchor_length' THEN $5 ELSE $6 END
             WHERE key IN ('anchor_length', 'anchor_head') AND (SELECT count(*) FROM appended) = $7`,
            [
              first,
              entries.map((e) => e.prev_hash),
              entries.map((e) => e.event),
              entries.map((e) => e.hash),
              String(next.length),
              next.head_hash,
              entries.length,
            ],
          );
          anchor = next;
        },
      };
      const result = await fn(writer);
      // Every listening process hears of the commit: PostgreSQL delivers a transaction's NOTIFY only
      // when it commits, and queues it before the COMMIT is acknowledged. One round trip for both.
      await client.query(`NOTIFY ${ident(this.listener.channel)}; COMMIT`);
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw typedStoreError(error);
    } finally {
      client.release();
    }
  }

  /** Whether the ledger has its entry tables (asked until they are seen). */
  private async hasEntries(client: pg.PoolClient): Promise<boolean> {
    if (!this.entryTables) this.entryTables = await hasEntryTables(client, this.schema);
    return this.entryTables;
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (cause) {
      throw new StoreUnavailableError('connection', `cannot reach PostgreSQL: ${(cause as Error).message}`, { cause });
    }
  }

  async close(): Promise<void> {
    await this.listener.close();
    if (this.ownsPool) await this.pool.end();
  }
}

/**
 * The server's refusals a caller can act on, as typed errors instead of the driver's raw ones:
 * - PostgreSQL `text` cannot hold U+0000 (SQLSTATE 22021, or 22P05 when converting): an id with a NUL
 *   that other stores keep is refused with `EWP_REFUSE_UNSTORABLE_TEXT`;
 * - a role without write privileges (42501) or a hot-standby replica (25006, a read-only
 *   transaction) refuses the write lock: `StoreUnavailableError('read_only')`, nothing written.
 */
export function typedStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '42501' || code === '25006') {
    const why = code === '42501' ? 'the role has no write privilege on this ledger' : 'the server is a read-only replica (hot standby)';
    return new StoreUnavailableError('read_only', `PostgreSQL refused the write: ${why} (${(error as Error).message}); nothing was written`, { cause: error });
  }
  if (code === '22021' || code === '22P05') {
    return new EwpError('EWP_REFUSE_UNSTORABLE_TEXT', 'PostgreSQL cannot store this id or text: it holds U+0000 (NUL), which PostgreSQL text does not allow', {
      cause: error,
    });
  }
  return error;
}
