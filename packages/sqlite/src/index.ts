/**
 * @ewp/sqlite — the EvidenceStore on SQLite (better-sqlite3): the embedded default.
 * @packageDocumentation
 */
export { openSqliteStore, SqliteEvidenceStore, type SqliteStoreOptions } from './sqlite-store.js';
export { APPLICATION_ID, SCHEMA_VERSION } from './sqlite-schema.js';
