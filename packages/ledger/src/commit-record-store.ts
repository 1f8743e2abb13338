/**
 * The storage contract of the commit-record protocol ({@link CommitRecordBackend}): what a store
 * without transactions (Mem0, Zep, a LangGraph BaseStore such as PostgresStore) must provide so the
 * shared ledger engine can run on it. Only two operations: add one immutable record, and list the
 * records whose fields equal a query. Nothing is updated, deleted or compared-and-swapped.
 */

/**
 * Kinds of records the protocol writes:
 * - `row`: one ledger row (a record binding or a snapshot row) of one ingest; invisible until its
 *   ingest is committed;
 * - `claim`: an ingest asks for commit position N;
 * - `withdrawal`: an ingest gives its claim up (it saw a rival claim);
 * - `commit`: written last, by the one claimant that saw no rival: the ingest's rows exist from now on.
 */
export type CommitRecordFamily = 'row' | 'claim' | 'withdrawal' | 'commit';

/** One stored record. Written once, never rewritten: a store may keep it as a memory, an episode or an item. */
export interface CommitRecord {
  /** Unique key (`<ingest>:<family>[:<n>]`); a store may use it as its own item key or keep it as metadata. */
  key: string;
  family: CommitRecordFamily;
  /** The ingest (one write attempt) the record belongs to: a random UUID. */
  ingest: string;
  /** The commit position a `claim`, `withdrawal` or `commit` is about (1-based). */
  position?: number;
  /** The proposition a `row` belongs to. */
  proposition?: string;
  /**
   * The row's natural text: the assertion text or the evidence content, so the store's own search
   * finds the claim. Absent for other records; a store shows those under a label of its own.
   */
  text?: string;
  /** The record's content, as JSON text (the protocol writes and parses it; stores keep it verbatim). */
  body: string;
}

/** Fields a listing selects on (all given fields must be equal). */
export interface CommitRecordQuery {
  family?: CommitRecordFamily;
  ingest?: string;
  position?: number;
  proposition?: string;
}

/** One search hit: a record that carries `text`, with the store's own relevance score when it gives one. */
export interface CommitRecordHit {
  record: CommitRecord;
  score?: number;
}

/**
 * A store that keeps {@link CommitRecord}s. `put` may be slow to become visible (a hosted store that
 * processes writes in the background): the protocol waits for its own records to show up before it
 * relies on them. Once visible, a record must stay visible (a store's own expiry must not hide it
 * from `list`). Records put by other clients may appear at any time; that is what the protocol is for.
 */
export interface CommitRecordStore {
  /** Add one record. Never retried by the protocol (a retry could store a record twice). */
  put(record: CommitRecord): Promise<void>;
  /**
   * Every record whose fields equal the query's (in any order, all pages). A store that cannot list
   * everything (a read limit) must throw rather than return a truncated list.
   */
  list(query: CommitRecordQuery): Promise<CommitRecord[]>;
  /**
   * Optional: the store's own search (similarity, full text) over the records of one proposition that
   * carry `text`, best first, at most `limit`. Hits may include uncommitted records; the protocol drops them.
   */
  search?(query: string, scope: { proposition: string; limit: number }): Promise<CommitRecordHit[]>;
}

/**
 * The flat metadata keys a store keeps a record's fields under when it has no columns of its own
 * (Mem0 memory metadata, Zep episode metadata): scalar values a metadata filter can select on.
 */
export const COMMIT_RECORD_META = {
  key: 'ewp_key',
  family: 'ewp_family',
  ingest: 'ewp_ingest',
  position: 'ewp_position',
  proposition: 'ewp_pid',
} as const;

/** A record's fields (all but `text` and `body`) as {@link COMMIT_RECORD_META} metadata. */
export function commitRecordMetadata(record: CommitRecord): Record<string, string | number> {
  const out: Record<string, string | number> = {
    [COMMIT_RECORD_META.key]: record.key,
    [COMMIT_RECORD_META.family]: record.family,
    [COMMIT_RECORD_META.ingest]: record.ingest,
  };
  if (record.position !== undefined) out[COMMIT_RECORD_META.position] = record.position;
  if (record.proposition !== undefined) out[COMMIT_RECORD_META.proposition] = record.proposition;
  return out;
}

/** A query as {@link COMMIT_RECORD_META} equality filters. */
export function commitQueryMetadata(query: CommitRecordQuery): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (query.family !== undefined) out[COMMIT_RECORD_META.family] = query.family;
  if (query.ingest !== undefined) out[COMMIT_RECORD_META.ingest] = query.ingest;
  if (query.position !== undefined) out[COMMIT_RECORD_META.position] = query.position;
  if (query.proposition !== undefined) out[COMMIT_RECORD_META.proposition] = query.proposition;
  return out;
}

/** The record kept under `metadata` with this body (and text), or undefined when the metadata is not a record's. */
export function commitRecordFromMetadata(metadata: Readonly<Record<string, unknown>>, body: string, text?: string): CommitRecord | undefined {
  const m = COMMIT_RECORD_META;
  const family = metadata[m.family];
  if (typeof metadata[m.key] !== 'string' || typeof metadata[m.ingest] !== 'string') return undefined;
  if (family !== 'row' && family !== 'claim' && family !== 'withdrawal' && family !== 'commit') return undefined;
  return {
    key: metadata[m.key] as string,
    family,
    ingest: metadata[m.ingest] as string,
    ...(typeof metadata[m.position] === 'number' ? { position: metadata[m.position] as number } : {}),
    ...(typeof metadata[m.proposition] === 'string' ? { proposition: metadata[m.proposition] as string } : {}),
    ...(text === undefined ? {} : { text }),
    body,
  };
}
