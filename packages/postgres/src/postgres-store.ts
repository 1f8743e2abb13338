/**
 * The PostgreSQL EvidenceStore: one ledger shared by many agents, processes and machines.
 */
import { LedgerEngineStore, type StoreCapabilities, StoreUnavailableError } from '@ewp/ledger';
import pg from 'pg';
import { PostgresLedgerBackend, typedStoreError } from './postgres-backend.js';
import { CommitListener, type ListenerState } from './postgres-listener.js';
import { ensureSchema, ident } from './postgres-schema.js';

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db`; default from the PG* environment variables, else `postgres://postgres@127.0.0.1:5432/test`. */
  connectionString?: string;
  /** An existing pool to use instead (not closed by `close()`). */
  pool?: pg.Pool;
  /** The PostgreSQL schema (namespace) that holds this ledger; default `ewp`. One ledger per schema. */
  schema?: string;
  /** Refuse every write; a schema that does not exist is refused (`not_found`) and nothing is created. */
  readOnly?: boolean;
  /** Pool size when this store creates the pool (default 4). */
  maxConnections?: number;
  /**
   * Learn of other processes' commits from PostgreSQL notifications (`LISTEN`, on one connection of its
   * own, outside the pool, opened at the first revision read): default true. While it is confirmed, a
   * revision read takes no pool connection and no transaction (see {@link PostgresStoreOptions.fence});
   * otherwise the revision is read from the chain head. Set false
   * behind a transaction-pooling proxy (PgBouncer in transaction mode), which does not keep a session's
   * `LISTEN`, or where one more connection per process is too many. Writes notify either way.
   */
  listen?: boolean;
  /**
   * With the listener: before a revision is answered from notifications, a trivial query on the listener
   * connection is answered (default true). PostgreSQL sends the notifications of every commit acknowledged
   * before that query ahead of its answer, so a caller that learned of a commit another way (the writer
   * told it) is never answered from before the commit. One such round trip serves every revision read asked
   * before it was sent. false: no round trip at all, and a commit is seen once its notification has
   * arrived, which on a loaded machine can be after a message the writer sent once its commit returned.
   */
  fence?: boolean;
}

/** The default connection string when none is given. */
export function defaultConnectionString(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const user = env.PGUSER ?? 'postgres';
  const host = env.PGHOST ?? '127.0.0.1';
  const port = env.PGPORT ?? '5432';
  const db = env.PGDATABASE ?? 'test';
  return `postgres://${encodeURIComponent(user)}@${host}:${port}/${encodeURIComponent(db)}`;
}

/**
 * An EvidenceStore in a PostgreSQL schema. Open it with {@link openPostgresStore}.
 *
 * @example
 * const store = await openPostgresStore({ schema: 'team_ledger' });
 * await store.put(view);
 * await store.close();
 */
export class PostgresEvidenceStore extends LedgerEngineStore {
  static readonly CAPABILITIES: StoreCapabilities = Object.freeze({ persistent: true, multiProcess: true, keepsAdapterMeta: true, transactional: true });

  readonly schema: string;
  readonly readOnly: boolean;
  /** The pool (for inspection and tests; writing through it bypasses every guarantee). */
  readonly pool: pg.Pool;

  private readonly listener: CommitListener;

  /** @internal use {@link openPostgresStore}. */
  constructor(pool: pg.Pool, schema: string, readOnly: boolean, ownsPool: boolean, listen = true, fence = true) {
    const listener = new CommitListener(pool.options, schema, listen, fence);
    super(new PostgresLedgerBackend(pool, schema, readOnly, ownsPool, listener), PostgresEvidenceStore.CAPABILITIES);
    this.listener = listener;
    this.pool = pool;
    this.schema = schema;
    this.readOnly = readOnly;
  }

  /**
   * Where this store's commit listener stands (see {@link PostgresStoreOptions.listen}): `listening`
   * means revisions are read without a round trip; any other state reads them from the chain head.
   */
  get listenerState(): ListenerState {
    return this.listener.state;
  }
}

/**
 * Connect, check (or create) the ledger schema, and return the store.
 * @throws {StoreUnavailableError} `connection`, `not_found` (read-only, no such schema) or `schema`.
 */
export async function openPostgresStore(options: PostgresStoreOptions = {}): Promise<PostgresEvidenceStore> {
  const schema = options.schema ?? 'ewp';
  if (schema === '' || schema.length > 63) throw new StoreUnavailableError('schema', `invalid PostgreSQL schema name ${ident(schema)}`);
  const readOnly = options.readOnly ?? false;
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString ?? defaultConnectionString(), max: options.maxConnections ?? 4 });
  // An idle client that errors (server restart) must not crash the process; the next query reports it.
  if (ownsPool) pool.on('error', () => undefined);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (cause) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw new StoreUnavailableError('connection', `cannot reach PostgreSQL: ${(cause as Error).message}`, { cause });
  }
  try {
    await ensureSchema(client, schema, readOnly);
  } catch (error) {
    client.release();
    if (ownsPool) await pool.end().catch(() => undefined);
    const typed = typedStoreError(error);
    throw StoreUnavailableError.isInstance(typed)
      ? typed
      : new StoreUnavailableError('connection', `cannot use PostgreSQL schema ${ident(schema)}: ${(error as Error).message}`, { cause: error });
  }
  client.release();
  return new PostgresEvidenceStore(pool, schema, readOnly, ownsPool, options.listen ?? true, options.fence ?? true);
}

/** Drop a ledger schema and everything in it (for tests and tear-down scripts). */
export async function dropPostgresLedger(schema: string, options: Pick<PostgresStoreOptions, 'connectionString'> = {}): Promise<void> {
  const client = new pg.Client({ connectionString: options.connectionString ?? defaultConnectionString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}
