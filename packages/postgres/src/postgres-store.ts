/**
 * The PostgreSQL EvidenceStore: one ledger shared by many agents, processes and machines.
 */
import { LedgerEngineStore, type StoreCapabilities, StoreUnavailableError } from '@ewp/ledger';
import pg from 'pg';
import { PostgresLedgerBackend, typedStoreError } from './postgres-backend.js';
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

  /** @internal use {@link openPostgresStore}. */
  constructor(pool: pg.Pool, schema: string, readOnly: boolean, ownsPool: boolean) {
    super(new PostgresLedgerBackend(pool, schema, readOnly, ownsPool), PostgresEvidenceStore.CAPABILITIES);
    this.pool = pool;
    this.schema = schema;
    this.readOnly = readOnly;
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
  return new PostgresEvidenceStore(pool, schema, readOnly, ownsPool);
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
