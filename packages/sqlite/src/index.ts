/**
 * @ewp/sqlite — the EvidenceStore on SQLite (Node's built-in node:sqlite, or better-sqlite3 on Node 20): the embedded default.
 * @packageDocumentation
 */
export { openSqliteStore, SqliteEvidenceStore, type SqliteStoreOptions } from './sqlite-store.js';
export {
  type SqliteConnection,
  type SqliteDriverName,
  SqliteDriverUnavailableError,
  type SqliteRunResult,
  type SqliteStatement,
} from './sqlite-driver.js';
