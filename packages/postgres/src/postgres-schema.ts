/**
 * The PostgreSQL ledger schema: every store lives in its own PostgreSQL schema (namespace), with a
 * meta row holding the schema version and the event-log anchor. Another version is refused; nothing
 * is migrated or guessed.
 */
import { StoreUnavailableError } from '@ewp/ledger';
import type pg from 'pg';

export const SCHEMA_VERSION = 2;
/** Written into the meta table so a foreign schema with similar table names is never mistaken for a ledger. */
const LEDGER_KIND = 'ewp-ledger';

/** Quote an identifier (schema names come from configuration). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function schemaSql(schema: string): string {
  const s = ident(schema);
  return `
CREATE TABLE ${s}.meta (
  key   text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE ${s}.bindings (
  owner  text NOT NULL,
  kind   text NOT NULL,
  id     text NOT NULL,
  body   text NOT NULL,
  PRIMARY KEY (owner, kind, id)
);
CREATE TABLE ${s}.snapshots (
  seq             bigserial PRIMARY KEY,
  owner           text NOT NULL,
  view_id         text NOT NULL,
  content_digest  text NOT NULL,
  parent_seq      bigint REFERENCES ${s}.snapshots (seq),
  depth           integer NOT NULL,
  head            text NOT NULL,
  members         text NOT NULL,
  record_count    integer NOT NULL,
  assertion_texts text NOT NULL,
  committed_at    text NOT NULL,
  UNIQUE (owner, view_id)
);
CREATE INDEX snapshots_by_owner ON ${s}.snapshots (owner, seq);
CREATE TABLE ${s}.chain (
  idx       bigint PRIMARY KEY,
  prev_hash text NOT NULL,
  event     text NOT NULL,
  hash      text NOT NULL
);
INSERT INTO ${s}.meta (key, value) VALUES
  ('kind', '${LEDGER_KIND}'), ('schema_version', '${SCHEMA_VERSION}'),
  ('anchor_length', '0'), ('anchor_head', '${'0'.repeat(64)}');
`;
}

/**
 * The ledger-entry tables. Added to a ledger lazily (on a writable open), so a ledger made before
 * entries opens as it is and keeps its schema version: a read-only handle on it reads no entries.
 * `entry_subjects` is the subject index (`readEntries({ subject })`); the audit checks it against the
 * rows' subjects.
 */
function entrySchemaSql(schema: string): string {
  const s = ident(schema);
  return `
CREATE TABLE IF NOT EXISTS ${s}.entries (
  kind         text NOT NULL,
  id           text NOT NULL,
  chain_index  bigint NOT NULL,
  subjects     text NOT NULL,
  body         text NOT NULL,
  committed_at text NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS entries_by_index ON ${s}.entries (chain_index);
CREATE INDEX IF NOT EXISTS entries_by_id ON ${s}.entries (id, chain_index);
CREATE TABLE IF NOT EXISTS ${s}.entry_subjects (
  subject     text NOT NULL,
  chain_index bigint NOT NULL,
  PRIMARY KEY (subject, chain_index)
);
`;
}

/** Whether the ledger in `schema` has its entry tables. */
export async function hasEntryTables(db: Pick<pg.PoolClient, 'query'>, schema: string): Promise<boolean> {
  const r = await db.query('SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AS ok', [
    `${ident(schema)}.entries`,
    `${ident(schema)}.entry_subjects`,
  ]);
  return (r.rows[0] as { ok: boolean }).ok;
}

/**
 * Check (and unless read-only, create) the ledger schema. Creation runs under a transaction-level
 * advisory lock so several processes opening one new ledger at once create it exactly once.
 */
export async function ensureSchema(client: pg.PoolClient, schema: string, readOnly: boolean): Promise<void> {
  const exists = async () => (await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema])).rowCount === 1;
  if (!(await exists())) {
    if (readOnly)
      throw new StoreUnavailableError('not_found', `ledger not found: PostgreSQL schema ${ident(schema)} does not exist (read-only mode creates nothing)`);
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ewp-ledger:${schema}`]);
      if (!(await exists())) {
        await client.query(`CREATE SCHEMA ${ident(schema)}`);
        await client.query(schemaSql(schema));
        await client.query(entrySchemaSql(schema));
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }
  let meta: Map<string, string>;
  try {
    const rows = (await client.query(`SELECT key, value FROM ${ident(schema)}.meta`)).rows as { key: string; value: string }[];
    meta = new Map(rows.map((r) => [r.key, r.value]));
  } catch (cause) {
    throw new StoreUnavailableError('schema', `PostgreSQL schema ${ident(schema)} is not an EWP ledger (no meta table); use another schema`, { cause });
  }
  if (meta.get('kind') !== LEDGER_KIND) {
    throw new StoreUnavailableError('schema', `PostgreSQL schema ${ident(schema)} is not an EWP ledger; use another schema`);
  }
  const version = meta.get('schema_version');
  if (version !== String(SCHEMA_VERSION)) {
    throw new StoreUnavailableError(
      'schema',
      `PostgreSQL schema ${ident(schema)} holds EWP ledger schema version ${version}, this @ewp/postgres reads version ${SCHEMA_VERSION} only; start a new ledger (no migration is attempted)`,
    );
  }
  if (!readOnly && !(await hasEntryTables(client, schema))) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ewp-ledger:${schema}`]);
      await client.query(entrySchemaSql(schema));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }
}
