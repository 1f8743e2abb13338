/**
 * The SQLite ledger schema. Versioned: `PRAGMA application_id` marks the file as an EWP ledger and
 * `PRAGMA user_version` holds the schema version. A file with another version (older or unknown) is
 * refused with a message to start a new ledger; nothing is migrated or guessed.
 */
import { StoreUnavailableError } from '@ewp/ledger';
import type { SqliteConnection } from './sqlite-driver.js';

/** "EWPL" as a 32-bit big-endian integer. */
export const APPLICATION_ID = 0x4557504c;
/** Schema version of this package. */
export const SCHEMA_VERSION = 2;

const SCHEMA_SQL = `
CREATE TABLE ewp_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE ewp_records (
  page   INTEGER PRIMARY KEY,
  owner  TEXT NOT NULL,
  keys   TEXT NOT NULL,
  bodies TEXT NOT NULL
);
CREATE INDEX ewp_records_by_owner ON ewp_records (owner, page);
CREATE TABLE ewp_snapshots (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  owner           TEXT NOT NULL,
  view_id         TEXT NOT NULL,
  content_digest  TEXT NOT NULL,
  parent_seq      INTEGER REFERENCES ewp_snapshots(seq),
  depth           INTEGER NOT NULL,
  head            TEXT NOT NULL,
  members         TEXT NOT NULL,
  record_count    INTEGER NOT NULL,
  assertion_texts TEXT NOT NULL,
  committed_at    TEXT NOT NULL,
  UNIQUE (owner, view_id)
);
CREATE INDEX ewp_snapshots_by_owner ON ewp_snapshots (owner, seq);
CREATE TABLE ewp_chain (
  idx       INTEGER PRIMARY KEY,
  prev_hash TEXT NOT NULL,
  event     TEXT NOT NULL,
  hash      TEXT NOT NULL
);
INSERT INTO ewp_meta (key, value) VALUES ('anchor_length', '0'), ('anchor_head', '${'0'.repeat(64)}');
`;

/**
 * The ledger-entry tables. Added to a ledger lazily (on a writable open), so a ledger made before
 * entries opens as it is and keeps its schema version: a read-only handle on it reads no entries.
 * `ewp_entry_subjects` is the subject index (`readEntries({ subject })`); the audit checks it against
 * the rows' subjects.
 */
const ENTRY_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS ewp_entries (
  kind         TEXT NOT NULL,
  id           TEXT NOT NULL,
  chain_index  INTEGER NOT NULL,
  subjects     TEXT NOT NULL,
  body         TEXT NOT NULL,
  committed_at TEXT NOT NULL,
  PRIMARY KEY (kind, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ewp_entries_by_index ON ewp_entries (chain_index);
CREATE INDEX IF NOT EXISTS ewp_entries_by_id ON ewp_entries (id, chain_index);
CREATE TABLE IF NOT EXISTS ewp_entry_subjects (
  subject     TEXT NOT NULL,
  chain_index INTEGER NOT NULL,
  PRIMARY KEY (subject, chain_index)
) WITHOUT ROWID;
`;

/** The entry tables (absent from ledgers made before entries and never opened writable since). */
const ENTRY_TABLES = ['ewp_entries', 'ewp_entry_subjects'];

const TABLES = ['ewp_meta', 'ewp_records', 'ewp_snapshots', 'ewp_chain'];

/**
 * Check (and, for a writable empty file, create) the schema. Runs inside `BEGIN IMMEDIATE` when
 * writable, so two processes creating one new ledger at once cannot both create it.
 */
export function ensureSchema(db: SqliteConnection, path: string, readOnly: boolean): void {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map(
    (r) => r.name,
  );
  if (tables.length === 0 && appId === 0 && version === 0) {
    if (readOnly) throw new StoreUnavailableError('schema', `${path}: not an EWP ledger (no tables); nothing was changed`);
    db.exec('BEGIN IMMEDIATE');
    try {
      // Re-check under the write lock: another process may have created it meanwhile.
      const again = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
      if (again.n === 0) {
        db.exec(SCHEMA_SQL);
        db.exec(ENTRY_SCHEMA_SQL);
        db.pragma(`application_id = ${APPLICATION_ID}`);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    ensureSchema(db, path, readOnly);
    return;
  }
  if (appId !== APPLICATION_ID) {
    throw new StoreUnavailableError('schema', `${path}: not an EWP ledger (application_id ${appId}, tables ${tables.join(', ') || 'none'}); use a new file`);
  }
  if (version !== SCHEMA_VERSION) {
    throw new StoreUnavailableError(
      'schema',
      `${path}: EWP ledger schema version ${version}, this @ewp/sqlite reads version ${SCHEMA_VERSION} only; start a new ledger (no migration is attempted)`,
    );
  }
  const missing = TABLES.filter((t) => !tables.includes(t));
  if (missing.length > 0) throw new StoreUnavailableError('damaged', `${path}: ledger tables missing: ${missing.join(', ')}`);
  if (!readOnly && ENTRY_TABLES.some((t) => !tables.includes(t))) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(ENTRY_SCHEMA_SQL);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
