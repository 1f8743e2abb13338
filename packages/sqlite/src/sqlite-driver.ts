/**
 * The one seam between the store and a SQLite driver: Node's built-in `node:sqlite` (unflagged from
 * Node 22.13; the store uses it from 22.16, whose statements return rows as arrays and whose
 * connections report an open transaction; no install script, no native compile) or better-sqlite3 (where `node:sqlite` is missing or older: Node 20, Node 22 before 22.16).
 * Both open the same file format and run the same SQL, so a ledger written through one is read and
 * verified through the other. The surface is the part of better-sqlite3's the store and its tests use
 * (prepare/run/get/all/iterate/raw/pluck, exec, pragma, transaction, close).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { StoreUnavailableError } from '@ewp/ledger';

/** The SQLite drivers this package runs on. */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

/** The result of a statement's `run`. */
export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/** A prepared statement (better-sqlite3's shape, on either driver). */
export interface SqliteStatement {
  /** Execute with `params` (positional values, or one object of named ones). */
  run(...params: unknown[]): SqliteRunResult;
  /** The first row, or undefined when there is none. */
  get(...params: unknown[]): unknown;
  /** Every row. */
  all(...params: unknown[]): unknown[];
  /** The rows one by one. */
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Rows as arrays of column values, in column order (this statement, from now on). */
  raw(): SqliteStatement;
  /** Rows as their first column's value (this statement, from now on). */
  pluck(): SqliteStatement;
}

/** An open SQLite connection on either driver. */
export interface SqliteConnection {
  /** Which driver the connection runs on. */
  readonly driver: SqliteDriverName;
  /** False once closed. */
  readonly open: boolean;
  /** True while a transaction is open on the connection. */
  readonly inTransaction: boolean;
  /** Compile one SQL statement. */
  prepare(sql: string): SqliteStatement;
  /** Run SQL text (any number of statements, no parameters). */
  exec(sql: string): void;
  /** `PRAGMA <text>`: its rows, or with `simple` the first column of the first row. */
  pragma(text: string, options?: { simple?: boolean }): unknown;
  /** `fn` inside `BEGIN`/`COMMIT` (`ROLLBACK` when it throws). */
  transaction<T>(fn: () => T): T;
  /** Close the connection. */
  close(): void;
}

/** How to open a connection. */
export interface SqliteOpenOptions {
  readOnly?: boolean;
  /** Refuse a missing file instead of creating it. */
  fileMustExist?: boolean;
  /** SQLite's own busy timeout, in ms. */
  timeout?: number;
  /** Open `path` as a `file:` URI (`?immutable=1` and the like). */
  uri?: boolean;
}

/**
 * The requested SQLite driver cannot be loaded: `node:sqlite` on a Node without it (before 22.16), or better-sqlite3
 * not installed (it is an optional peer: `npm i better-sqlite3`) or not built for this Node.
 * A `StoreUnavailableError` (reason `connection`, code `EWP_REFUSE_LEDGER_UNAVAILABLE`), so callers
 * that handle an unreachable store handle this too; `driver` names the driver.
 */
export class SqliteDriverUnavailableError extends StoreUnavailableError {
  /** The marker `isInstance` looks for. */
  static override readonly marker: symbol = Symbol.for('ewp.error.SqliteDriverUnavailableError');
  /** The driver that could not be loaded. */
  readonly driver: SqliteDriverName;
  constructor(driver: SqliteDriverName, message: string, options?: { cause?: unknown }) {
    super('connection', `driver ${driver}: ${message}`, { cause: options?.cause });
    this.name = 'SqliteDriverUnavailableError';
    this.driver = driver;
  }
}

// ---- node:sqlite ------------------------------------------------------------------------------

interface NodeStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  setReturnArrays?(on: boolean): void;
  setAllowUnknownNamedParameters?(on: boolean): void;
}
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
  readonly isOpen?: boolean;
  readonly isTransaction?: boolean;
}
interface NodeSqliteModule {
  DatabaseSync: new (path: string | URL, options?: Record<string, unknown>) => NodeDatabase;
}

let nodeSqlite: NodeSqliteModule | null | undefined;

/**
 * `node:sqlite`, or null where this Node has none. Loading it prints one `ExperimentalWarning`
 * ("SQLite is an experimental feature"); that warning alone is dropped, every other goes through.
 */
function loadNodeSqlite(): NodeSqliteModule | null {
  if (nodeSqlite !== undefined) return nodeSqlite;
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const emit = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const message = typeof warning === 'string' ? warning : warning.message;
    const type = typeof warning === 'string' ? (typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type) : warning.name;
    if (type === 'ExperimentalWarning' && /\bSQLite\b/.test(message)) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const mod = getBuiltin?.call(process, 'node:sqlite') as NodeSqliteModule | undefined;
    nodeSqlite = mod !== undefined && typeof mod.DatabaseSync === 'function' ? mod : null;
  } catch {
    nodeSqlite = null;
  } finally {
    process.emitWarning = emit;
  }
  return nodeSqlite;
}

class NodeSqliteStatement implements SqliteStatement {
  private mode: 'rows' | 'raw' | 'pluck' = 'rows';
  constructor(private readonly s: NodeStatement) {
    // better-sqlite3 ignores keys of a named-parameter object the statement does not use; so does this.
    s.setAllowUnknownNamedParameters?.(true);
  }
  private row(r: unknown): unknown {
    if (r === undefined || this.mode !== 'pluck') return r;
    return (r as unknown[])[0];
  }
  run(...params: unknown[]): SqliteRunResult {
    return this.s.run(...params);
  }
  get(...params: unknown[]): unknown {
    return this.row(this.s.get(...params));
  }
  all(...params: unknown[]): unknown[] {
    const rows = this.s.all(...params);
    return this.mode === 'pluck' ? rows.map((r) => (r as unknown[])[0]) : rows;
  }
  *iterate(...params: unknown[]): IterableIterator<unknown> {
    for (const r of this.s.iterate(...params)) yield this.row(r);
  }
  raw(): SqliteStatement {
    this.arrays();
    this.mode = 'raw';
    return this;
  }
  pluck(): SqliteStatement {
    this.arrays();
    this.mode = 'pluck';
    return this;
  }
  private arrays(): void {
    if (this.s.setReturnArrays === undefined)
      throw new SqliteDriverUnavailableError(
        'node:sqlite',
        `node:sqlite of Node ${process.version} has no setReturnArrays; use Node ≥ 22.16 or driver 'better-sqlite3'`,
      );
    this.s.setReturnArrays(true);
  }
}

class NodeSqliteConnection implements SqliteConnection {
  readonly driver = 'node:sqlite' as const;
  private closed = false;
  constructor(private readonly db: NodeDatabase) {}
  get open(): boolean {
    return this.db.isOpen ?? !this.closed;
  }
  get inTransaction(): boolean {
    return this.db.isTransaction === true;
  }
  prepare(sql: string): SqliteStatement {
    return new NodeSqliteStatement(this.db.prepare(sql));
  }
  exec(sql: string): void {
    this.db.exec(sql);
  }
  pragma(text: string, options?: { simple?: boolean }): unknown {
    const statement = this.db.prepare(`PRAGMA ${text}`);
    if (options?.simple !== true) return statement.all();
    const row = statement.get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction !== false) this.db.exec('ROLLBACK');
      throw error;
    }
  }
  close(): void {
    this.closed = true;
    this.db.close();
  }
}

function openNodeSqlite(mod: NodeSqliteModule, path: string, options: SqliteOpenOptions): SqliteConnection {
  // node:sqlite has no "must exist" flag (a read-only open never creates; a writable one is checked here).
  if (options.fileMustExist === true && options.uri !== true && !existsSync(path))
    throw new StoreUnavailableError('not_found', `cannot open ${path}: unable to open database file (it does not exist)`);
  const db = new mod.DatabaseSync(options.uri === true ? new URL(path) : path, {
    readOnly: options.readOnly === true,
    // The store sets foreign_keys itself; node:sqlite would otherwise turn it on at open.
    enableForeignKeyConstraints: false,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
  return new NodeSqliteConnection(db);
}

// ---- better-sqlite3 ---------------------------------------------------------------------------

type BetterSqliteConstructor = new (path: string, options?: Record<string, unknown>) => SqliteConnectionLike;
interface SqliteConnectionLike {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(text: string, options?: { simple?: boolean }): unknown;
  transaction<T>(fn: () => T): () => T;
  close(): unknown;
  readonly open: boolean;
  readonly inTransaction: boolean;
}

let betterSqlite: BetterSqliteConstructor | undefined;

function loadBetterSqlite(): BetterSqliteConstructor {
  if (betterSqlite !== undefined) return betterSqlite;
  try {
    const required = createRequire(import.meta.url)('better-sqlite3') as BetterSqliteConstructor | { default: BetterSqliteConstructor };
    betterSqlite = typeof required === 'function' ? required : required.default;
    return betterSqlite;
  } catch (cause) {
    const missing = (cause as { code?: string }).code === 'MODULE_NOT_FOUND';
    throw new SqliteDriverUnavailableError(
      'better-sqlite3',
      missing
        ? `better-sqlite3 is not installed, and Node ${process.version} has no node:sqlite the store runs on (Node ≥ 22.16 has it built in): npm i better-sqlite3`
        : `better-sqlite3 cannot be loaded under Node ${process.version}: ${(cause as Error).message}`,
      { cause },
    );
  }
}

class BetterSqliteConnection implements SqliteConnection {
  readonly driver = 'better-sqlite3' as const;
  constructor(private readonly db: SqliteConnectionLike) {}
  get open(): boolean {
    return this.db.open;
  }
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }
  prepare(sql: string): SqliteStatement {
    return this.db.prepare(sql);
  }
  exec(sql: string): void {
    this.db.exec(sql);
  }
  pragma(text: string, options?: { simple?: boolean }): unknown {
    return this.db.pragma(text, options);
  }
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
  close(): void {
    this.db.close();
  }
}

function openBetterSqlite(path: string, options: SqliteOpenOptions): SqliteConnection {
  const Database = loadBetterSqlite();
  // better-sqlite3 reads SQLITE_USE_URI once, when its native addon loads (at the first `new Database`),
  // and compiles URI filenames off by default. Only names starting with `file:` are affected; ledger
  // paths are absolute, so no ledger path is ever read as a URI by accident.
  process.env.SQLITE_USE_URI ??= '1';
  let db: SqliteConnectionLike;
  try {
    db = new Database(path, {
      readonly: options.readOnly === true,
      fileMustExist: options.fileMustExist === true,
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    });
  } catch (cause) {
    // better-sqlite3 loads its native addon at the first open: an addon built for another Node (or
    // none at all) fails here, which is the driver missing, not the file.
    const { code, message } = cause as { code?: unknown; message?: string };
    if (code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|Could not locate the bindings file/.test(message ?? '')) {
      throw new SqliteDriverUnavailableError(
        'better-sqlite3',
        `better-sqlite3's native addon does not load under Node ${process.version}: ${(message ?? '').split('\n')[0]}`,
        {
          cause,
        },
      );
    }
    throw cause;
  }
  return new BetterSqliteConnection(db);
}

// ---- choosing ---------------------------------------------------------------------------------

/** True where this Node has a `node:sqlite` the store runs on (Node ≥ 22.16). */
export function hasNodeSqlite(): boolean {
  return usableNodeSqlite() !== null;
}

/**
 * `node:sqlite` when this Node's has what the store uses (rows as arrays, `isTransaction`, the busy
 * `timeout` option: Node ≥ 22.16), else null.
 */
function usableNodeSqlite(): NodeSqliteModule | null {
  const mod = loadNodeSqlite();
  const statement = (mod as { StatementSync?: { prototype?: { setReturnArrays?: unknown } } } | null)?.StatementSync?.prototype;
  return mod !== null && typeof statement?.setReturnArrays === 'function' ? mod : null;
}

/**
 * The driver used when none is asked for: `node:sqlite` where this Node has it with what the store
 * uses (Node ≥ 22.16), better-sqlite3 elsewhere. `EWP_SQLITE_DRIVER` overrides it (tests, and users
 * who want better-sqlite3 on Node 22).
 */
export function defaultSqliteDriver(): SqliteDriverName {
  const forced = process.env.EWP_SQLITE_DRIVER;
  if (forced === 'node:sqlite' || forced === 'better-sqlite3') return forced;
  return usableNodeSqlite() !== null ? 'node:sqlite' : 'better-sqlite3';
}

/**
 * Open a SQLite connection on `driver` (default {@link defaultSqliteDriver}).
 * @throws {SqliteDriverUnavailableError} the driver cannot be loaded under this Node.
 */
export function openSqliteConnection(path: string, options: SqliteOpenOptions = {}, driver: SqliteDriverName = defaultSqliteDriver()): SqliteConnection {
  if (driver === 'node:sqlite') {
    const mod = usableNodeSqlite();
    if (mod === null) {
      throw new SqliteDriverUnavailableError(
        'node:sqlite',
        `Node ${process.version} has no node:sqlite the store runs on (Node ≥ 22.16 has it built in); use driver 'better-sqlite3' (npm i better-sqlite3)`,
      );
    }
    return openNodeSqlite(mod, path, options);
  }
  if (driver === 'better-sqlite3') return openBetterSqlite(path, options);
  throw new SqliteDriverUnavailableError(driver, `unknown SQLite driver ${JSON.stringify(driver)}: 'node:sqlite' or 'better-sqlite3'`);
}
