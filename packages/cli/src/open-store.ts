/**
 * Open the ledger a command or the MCP server names: `--db` (SQLite file), `--pg` (PostgreSQL URL)
 * or `--json-dir` (JSON-file directory), exactly one. Store packages are imported lazily, so a
 * command that never opens SQLite never loads the native binding.
 */
import { resolve } from 'node:path';
import { EwpError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { importOptional, isNotInstalled, PackageNotInstalledError } from './optional-package.js';

export interface OpenStoreSpec {
  /** A SQLite ledger file (created with its parent directories unless read-only). */
  db?: string;
  /**
   * A PostgreSQL connection URL. The ledger's schema (namespace) is the URL's `schema` query
   * parameter (`postgres://host/db?schema=team`), else `pgSchema`, else `ewp`.
   */
  pg?: string;
  /** A JSON-file ledger directory. */
  jsonDir?: string;
  /** Open an existing ledger for reading only; a missing one is refused and nothing is created. */
  readOnly?: boolean;
  /** PostgreSQL schema when the URL names none. */
  pgSchema?: string;
}

/** The `parseArgs` options of every verb that opens a ledger: `--db`, `--pg`, `--json-dir`. */
export const LEDGER_OPTIONS = {
  db: { type: 'string' },
  pg: { type: 'string' },
  'json-dir': { type: 'string' },
} as const;

/** The ledger the parsed {@link LEDGER_OPTIONS} name, with file paths resolved against `cwd`. */
export function ledgerSpec(values: { db?: string; pg?: string; 'json-dir'?: string }, cwd: string): OpenStoreSpec {
  return {
    ...(values.db === undefined ? {} : { db: resolve(cwd, values.db) }),
    ...(values.pg === undefined ? {} : { pg: values.pg }),
    ...(values['json-dir'] === undefined ? {} : { jsonDir: resolve(cwd, values['json-dir']) }),
  };
}

/** The spec names no ledger, or more than one. Maps to exit code 2 / EWP_REFUSE_INVALID_ARGUMENTS. */
export class StoreSpecError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.StoreSpecError');
  constructor(message: string) {
    super('EWP_REFUSE_INVALID_ARGUMENTS', message);
    this.name = 'StoreSpecError';
  }
}

/** Split `?schema=` off a PostgreSQL URL (pg would pass unknown parameters to the server). */
export function splitPgUrl(url: string): { connectionString: string; schema: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreSpecError(`--pg: not a URL: ${JSON.stringify(url)} (expected postgres://user@host:port/db)`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StoreSpecError(`--pg: expected a postgres:// URL, got ${JSON.stringify(parsed.protocol)}`);
  }
  const schema = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
}

/**
 * Open the named ledger.
 * @throws {StoreSpecError} when the spec names no ledger or several.
 * @throws {PackageNotInstalledError} for `pg` when @ewp/postgres (an optional peer) is not installed; for `db`
 * when this Node has no `node:sqlite` the store runs on (before 22.16) and better-sqlite3 (an optional peer) is not installed.
 * @throws {import('@ewp/ledger').StoreUnavailableError} when the ledger cannot be used (`not_found`, `schema`, `connection`, …).
 */
export async function openStore(spec: OpenStoreSpec): Promise<EvidenceStore> {
  const named = [spec.db, spec.pg, spec.jsonDir].filter((x) => x !== undefined);
  if (named.length !== 1) {
    throw new StoreSpecError(
      named.length === 0 ? 'name a ledger: --db <file.sqlite>, --pg <postgres://…> or --json-dir <dir>' : 'name one ledger only: --db, --pg or --json-dir',
    );
  }
  const readOnly = spec.readOnly ?? false;
  if (spec.db !== undefined) {
    if (spec.db === '') throw new StoreSpecError('--db: empty path');
    const { SqliteDriverUnavailableError, SqliteEvidenceStore } = await import('@ewp/sqlite');
    try {
      return new SqliteEvidenceStore(spec.db, { readOnly });
    } catch (error) {
      // Before Node 22.16 the store needs better-sqlite3, an optional peer: say so as for the other optional peers.
      if (SqliteDriverUnavailableError.isInstance(error) && error.driver === 'better-sqlite3' && isNotInstalled(error.cause)) {
        throw new PackageNotInstalledError('better-sqlite3', `a SQLite ledger (--db) on Node ${process.version} (Node ≥ 22.16 has SQLite built in)`, error);
      }
      throw error;
    }
  }
  if (spec.pg !== undefined) {
    const { connectionString, schema } = splitPgUrl(spec.pg);
    // An optional peer: only a PostgreSQL ledger needs it (and pg).
    const { openPostgresStore } = await importOptional('@ewp/postgres', 'a PostgreSQL ledger (--pg)', () => import('@ewp/postgres'));
    return openPostgresStore({ connectionString, schema: schema ?? spec.pgSchema ?? 'ewp', readOnly });
  }
  if (spec.jsonDir === '') throw new StoreSpecError('--json-dir: empty path');
  const { JsonFileEvidenceStore } = await import('@ewp/ledger');
  return new JsonFileEvidenceStore(spec.jsonDir as string, { readOnly });
}
