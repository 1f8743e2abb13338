/**
 * The SQLite EvidenceStore: the embedded default. One file, WAL journal, one `BEGIN IMMEDIATE`
 * transaction per write, a versioned schema, and a read-only mode that creates nothing.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChainVerification, VerifyChainOptions } from '@ewp/canonical';
import { LedgerEngineStore, makeDirectories, type StoreCapabilities, StoreUnavailableError } from '@ewp/ledger';
import { openReadOnlyDatabase } from './read-only-open.js';
import { SqliteLedgerBackend } from './sqlite-backend.js';
import { ensureSchema } from './sqlite-schema.js';
import { whileBusy } from './sqlite-busy.js';
import { defaultSqliteDriver, openSqliteConnection, type SqliteConnection, type SqliteDriverName } from './sqlite-driver.js';

export interface SqliteStoreOptions {
  /**
   * Open an existing ledger for reading only (SQLite `mode=ro`): a missing path is refused with
   * `StoreUnavailableError` (`not_found`) and nothing is created; every write is refused.
   */
  readOnly?: boolean;
  /** How long a write waits for another writer's lock, in ms (default 30 000). */
  busyTimeoutMs?: number;
  /**
   * The SQLite driver. Default: Node's built-in `node:sqlite` where this Node has it (Node ≥ 22.16),
   * better-sqlite3 elsewhere (an optional peer: `npm i better-sqlite3`). Both read and write the
   * same files. The `EWP_SQLITE_DRIVER` environment variable sets the default.
   */
  driver?: SqliteDriverName;
}

/**
 * An EvidenceStore in one SQLite file.
 *
 * @example
 * const store = new SqliteEvidenceStore('./ewp.sqlite');
 * await store.put(view);
 * const latest = await store.get('P-prod-db-version');
 * await store.close();
 */
export class SqliteEvidenceStore extends LedgerEngineStore {
  static readonly CAPABILITIES: StoreCapabilities = Object.freeze({ persistent: true, multiProcess: true, keepsAdapterMeta: true, transactional: true });

  /** Absolute path of the ledger file. */
  readonly path: string;
  readonly readOnly: boolean;
  /** The SQLite connection (for inspection and tests; writing through it bypasses every guarantee). */
  readonly db: SqliteConnection;
  /** The driver the connection runs on. */
  readonly driver: SqliteDriverName;

  /**
   * Open (or, unless read-only, create) the ledger at `path`; parent directories are created.
   * @throws {StoreUnavailableError} `not_found`, `schema` or `damaged`.
   * @throws {SqliteDriverUnavailableError} the driver cannot be loaded under this Node.
   */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    const file = resolve(path);
    const readOnly = options.readOnly ?? false;
    const busyTimeoutMs = options.busyTimeoutMs ?? 30_000;
    const driver = options.driver ?? defaultSqliteDriver();
    const db = openDatabase(file, readOnly, busyTimeoutMs, driver);
    super(new SqliteLedgerBackend(db, readOnly, busyTimeoutMs), SqliteEvidenceStore.CAPABILITIES);
    this.path = file;
    this.readOnly = readOnly;
    this.db = db;
    this.driver = driver;
  }

  /**
   * SQLite's own `PRAGMA integrity_check` first (b-tree structure, and every index against its
   * table: a row missing from an index makes a read miss a snapshot while every row still matches
   * its event), then the engine's check of the event log and of every row against its event.
   */
  override async verifyChain(options?: VerifyChainOptions): Promise<ChainVerification> {
    this.ensureOpen();
    let problems: string[];
    try {
      problems = (this.db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (error) {
      problems = [(error as Error).message];
    }
    if (!(problems.length === 1 && problems[0] === 'ok')) {
      let length = 0;
      try {
        length = (this.db.prepare('SELECT COUNT(*) AS n FROM ewp_chain').get() as { n: number }).n;
      } catch {
        // the log itself is unreadable: its length is unknown
      }
      const shown = problems.slice(0, 3).join('; ');
      return {
        ok: false,
        length,
        firstBadIndex: 0,
        reason: 'storage_damaged',
        detail: `SQLite integrity_check: ${shown}${problems.length > 3 ? ` (+${problems.length - 3} more)` : ''}`,
      };
    }
    try {
      return await super.verifyChain(options);
    } catch (error) {
      // A page SQLite cannot read fails the audit instead of escaping it.
      if (StoreUnavailableError.isInstance(error)) throw error;
      return { ok: false, length: 0, firstBadIndex: 0, reason: 'storage_damaged', detail: (error as Error).message };
    }
  }
}

/** Open a SQLite ledger (same as the constructor; an async shape like the other stores). */
export async function openSqliteStore(path: string, options?: SqliteStoreOptions): Promise<SqliteEvidenceStore> {
  return new SqliteEvidenceStore(path, options);
}

/**
 * SQLite page size of new ledgers: the fastest batched ingest of the sizes tried, with reads and
 * single-record extends unchanged (docs/performance.md, "Figures behind choices in the code").
 */
const PAGE_SIZE = 32768;

function openDatabase(file: string, readOnly: boolean, busyTimeoutMs: number, driver: SqliteDriverName): SqliteConnection {
  if (readOnly && !existsSync(file)) {
    throw new StoreUnavailableError('not_found', `ledger not found: ${file} (read-only mode creates nothing)`);
  }
  if (!readOnly) makeDirectories(dirname(file));
  let db: SqliteConnection;
  try {
    db = readOnly ? openReadOnlyDatabase(file, busyTimeoutMs, driver) : openSqliteConnection(file, { timeout: busyTimeoutMs }, driver);
  } catch (cause) {
    if (StoreUnavailableError.isInstance(cause)) throw cause;
    throw new StoreUnavailableError(readOnly ? 'not_found' : 'connection', `cannot open ${file}: ${(cause as Error).message}`, { cause });
  }
  try {
    if (!readOnly) {
      // Takes effect only when the file is created (before WAL mode is set); a no-op on an existing ledger.
      // Larger pages hold a commit's record page in fewer overflow pages.
      db.pragma(`page_size = ${PAGE_SIZE}`);
      whileBusy(() => db.pragma('journal_mode = WAL'), busyTimeoutMs);
      // WAL + NORMAL is durable against process crashes (the fault tests' SIGKILL); FULL adds power-loss durability.
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    // A writer gets 64 MiB of page cache (SQLite's default is 2 MiB): a batched ingest transaction
    // dirties several MiB, and a smaller cache spills pages to the WAL before COMMIT; beyond that, the
    // indexes of a growing ledger stay cached (docs/performance.md, "Ingest"). A reader gets 8 MiB: the
    // cache fills as pages are read, so a server answering every proposition of a large ledger would
    // otherwise hold the whole file in its heap, while a page it misses is a read from the operating
    // system's file cache (docs/performance.md, "MCP read path").
    db.pragma(readOnly ? 'cache_size = -8192' : 'cache_size = -65536');
    ensureSchema(db, file, readOnly);
    // From here on BEGIN IMMEDIATE polls on its own (see SqliteLedgerBackend); other statements rarely wait.
    db.pragma('busy_timeout = 5');
  } catch (error) {
    db.close();
    if (StoreUnavailableError.isInstance(error)) throw error;
    throw new StoreUnavailableError('damaged', `cannot use ${file}: ${(error as Error).message}`, { cause: error });
  }
  return db;
}
