import { CanonicalizationError, ebcj1String, readJsonExact } from '@ewp/canonical';
import { decodeCheckpoint, decodeProofReceipt, decodeVerificationBody } from '../checkpoint/decode.js';
import { type Checkpoint, checkpointPayload } from '../checkpoint/model.js';
import { receiptPayload, verifyVerificationReceipt } from '../checkpoint/receipt-checks.js';
import type { VerificationResult } from '../checkpoint/verification.js';
import { GraphError, PersistenceError, PersistenceIntegrityError, ReceiptFormatError, ReplayConflict, UnsupportedPersistenceSchema } from '../errors.js';
import { DependencyGraph } from '../graph/dependency-graph.js';
import { type ReplayOutcome, operationDigest } from '../replay/replay-guard.js';

/**
 * The part of a better-sqlite3 `Database` this store uses. Declared here so the published types do
 * not require better-sqlite3 (an optional peer dependency) to be installed.
 */
interface SqliteDatabase {
  readonly memory: boolean;
  readonly inTransaction: boolean;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
  prepare(source: string): {
    run(...params: unknown[]): unknown;
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  transaction(fn: () => unknown): { immediate(): unknown };
  close(): unknown;
}
type Database = SqliteDatabase;

/** Where an injected fault may fire during {@link SqliteReceiptStore.commitBundle}, in order (docs/spec/receipts.md §9.4). */
export type CrashPoint =
  | 'before_checkpoint_write'
  | 'after_checkpoint_write'
  | 'before_receipt_write'
  | 'after_receipt_write'
  | 'after_verification_write'
  | 'before_replay_write'
  | 'after_replay_write'
  | 'after_commit';

export interface SqliteReceiptStoreOptions {
  /** Fault injection for tests: called at each crash point; throwing there aborts the commit. */
  onCrashPoint?: (point: CrashPoint) => void;
}

const TABLES = ['eb_metadata', 'eb_checkpoints', 'eb_receipts', 'eb_verifications', 'eb_replay'] as const;

const SCHEMA = `
CREATE TABLE eb_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE eb_checkpoints (checkpoint_id TEXT PRIMARY KEY, record_version TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE eb_receipts (checkpoint_id TEXT PRIMARY KEY REFERENCES eb_checkpoints(checkpoint_id) ON DELETE CASCADE,
  record_version TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE eb_verifications (checkpoint_id TEXT PRIMARY KEY REFERENCES eb_checkpoints(checkpoint_id) ON DELETE CASCADE,
  record_version TEXT NOT NULL, payload TEXT NOT NULL);
CREATE TABLE eb_replay (operation_id TEXT PRIMARY KEY, payload_digest TEXT NOT NULL);
INSERT INTO eb_metadata (key, value) VALUES ('schema_version', '1');
`;

/**
 * Opens (or creates) the receipt store in a SQLite file with better-sqlite3, loaded lazily so this
 * package works without it. Pass `':memory:'` for a private in-memory database.
 * @throws {UnsupportedPersistenceSchema} for a foreign, partial or newer schema (nothing is repaired).
 */
export async function openSqliteReceiptStore(filename: string, options: SqliteReceiptStoreOptions = {}): Promise<SqliteReceiptStore> {
  let Driver: new (filename: string) => SqliteDatabase;
  try {
    Driver = (await import('better-sqlite3')).default as unknown as new (filename: string) => SqliteDatabase;
  } catch (error) {
    throw new PersistenceError('better-sqlite3 is not installed; add it to use the SQLite receipt store', 'PERSISTENCE', { cause: error });
  }
  const db = new Driver(filename);
  try {
    return new SqliteReceiptStore(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The reference's SQLite persistence (docs/spec/receipts.md §9): checkpoint, receipt and verification rows committed
 * as one bundle in one transaction, a durable replay guard, and loads that fail closed. Stored is
 * not trusted: every load re-derives the digests, and (stricter than the reference, as docs/spec/receipts.md §9.5
 * recommends) a row whose text is not the EBCJ-1 text of its value is refused.
 */
export class SqliteReceiptStore {
  readonly db: Database;
  readonly #options: SqliteReceiptStoreOptions;

  /** Wraps an open better-sqlite3 database; creates the schema in an empty one. @throws {UnsupportedPersistenceSchema} */
  constructor(db: Database, options: SqliteReceiptStoreOptions = {}) {
    this.db = db;
    this.#options = options;
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = FULL');
    if (!db.memory) db.pragma('journal_mode = WAL');
    this.#openSchema();
  }

  #openSchema(): void {
    const present = new Set(
      (
        this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'eb\\_%' ESCAPE '\\'").all() as {
          name: string;
        }[]
      ).map((r) => r.name),
    );
    if (present.has('eb_metadata')) {
      const row = this.db.prepare("SELECT value FROM eb_metadata WHERE key = 'schema_version'").get() as { value: string } | undefined;
      if (row === undefined) throw new UnsupportedPersistenceSchema('persistence schema has no schema_version');
      if (row.value !== '1') throw new UnsupportedPersistenceSchema(`unsupported persistence schema version: '${row.value}'`);
      const missing = TABLES.filter((t) => !present.has(t));
      if (missing.length > 0) {
        throw new UnsupportedPersistenceSchema(`persistence schema is incomplete; missing tables: ${missing.join(', ')}`);
      }
      return;
    }
    if (present.size > 0) {
      throw new UnsupportedPersistenceSchema('partial EvidenceBound persistence schema found without metadata');
    }
    this.db.exec(`BEGIN IMMEDIATE;${SCHEMA}COMMIT;`);
  }

  #crash(point: CrashPoint): void {
    this.#options.onCrashPoint?.(point);
  }

  /**
   * Commits a checkpoint with its verification result as one bundle (docs/spec/receipts.md §9.4). Everything is checked
   * before the transaction; inside it, an operation id already recorded with the same payload and the
   * identical bundle is ALREADY_APPLIED (nothing written), with another payload a ReplayConflict.
   * @returns APPLIED / ALREADY_APPLIED with an operation id, null without.
   * @throws {UnsupportedPersistenceSchema} @throws {PersistenceIntegrityError} @throws {PersistenceError}
   * @throws {ReplayConflict}
   */
  commitBundle(cp: Checkpoint, result: VerificationResult, operationId: string | null = null, operationPayload: unknown = null): ReplayOutcome | null {
    if (cp.schema_version !== '1') {
      throw new UnsupportedPersistenceSchema(`unsupported checkpoint schema version: '${cp.schema_version}'`);
    }
    if (cp.checkpoint_id !== result.checkpoint_id) throw new PersistenceIntegrityError('checkpoint and verification IDs differ');
    if (!verifyVerificationReceipt(result, cp)) {
      throw new PersistenceIntegrityError('verification receipt is not bound to the checkpoint being persisted');
    }
    if ((cp.operation_id ?? null) !== (operationId ?? null)) {
      throw new PersistenceIntegrityError('checkpoint operation_id must match the atomically persisted replay operation');
    }
    if (operationId == null && operationPayload != null) throw new PersistenceError('operation_payload requires operation_id');
    if (this.db.inTransaction) throw new PersistenceError('a transaction is already open on this connection');

    const cpText = ebcj1String(checkpointPayload(cp));
    const receiptText = ebcj1String(receiptPayload(result.receipt));
    const { receipt: _receipt, ...body } = result;
    const verificationText = ebcj1String(verificationBodyPayload(body));
    const digest = operationId == null ? null : operationDigest(operationPayload);

    this.db.exec('BEGIN IMMEDIATE');
    let committed = false;
    try {
      if (operationId != null) {
        const seen = this.db.prepare('SELECT payload_digest FROM eb_replay WHERE operation_id = ?').get(operationId) as { payload_digest: string } | undefined;
        if (seen !== undefined) {
          if (seen.payload_digest !== digest) throw new ReplayConflict(operationId);
          const id = cp.checkpoint_id;
          const same =
            this.#rowText('eb_checkpoints', id) === cpText &&
            this.#rowText('eb_receipts', id) === receiptText &&
            this.#rowText('eb_verifications', id) === verificationText;
          if (!same) {
            throw new PersistenceIntegrityError('replay record exists but its persisted checkpoint bundle is missing or different');
          }
          this.db.exec('ROLLBACK');
          return 'ALREADY_APPLIED';
        }
      }
      this.#crash('before_checkpoint_write');
      // Replacing the checkpoint row would cascade-delete its receipt and verification rows; that
      // is fine because both are rewritten below in the same transaction.
      this.db.prepare('INSERT OR REPLACE INTO eb_checkpoints (checkpoint_id, record_version, payload) VALUES (?, ?, ?)').run(cp.checkpoint_id, '1', cpText);
      this.#crash('after_checkpoint_write');
      this.#crash('before_receipt_write');
      this.db.prepare('INSERT OR REPLACE INTO eb_receipts (checkpoint_id, record_version, payload) VALUES (?, ?, ?)').run(cp.checkpoint_id, '1', receiptText);
      this.#crash('after_receipt_write');
      this.db
        .prepare('INSERT OR REPLACE INTO eb_verifications (checkpoint_id, record_version, payload) VALUES (?, ?, ?)')
        .run(cp.checkpoint_id, '1', verificationText);
      this.#crash('after_verification_write');
      if (operationId != null) {
        this.#crash('before_replay_write');
        this.db.prepare('INSERT INTO eb_replay (operation_id, payload_digest) VALUES (?, ?)').run(operationId, digest);
        this.#crash('after_replay_write');
      }
      this.db.exec('COMMIT');
      committed = true;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
    if (committed) this.#crash('after_commit');
    return operationId == null ? null : 'APPLIED';
  }

  /**
   * The durable replay guard (docs/spec/receipts.md §8, §9.5) in its own transaction: same semantics as
   * {@link ReplayGuard}, across restarts and processes.
   * @throws {ReplayConflict}
   */
  applyOperation(operationId: string, payload: unknown): ReplayOutcome {
    const digest = operationDigest(payload);
    const run = this.db.transaction((): ReplayOutcome => {
      const seen = this.db.prepare('SELECT payload_digest FROM eb_replay WHERE operation_id = ?').get(operationId) as { payload_digest: string } | undefined;
      if (seen === undefined) {
        this.db.prepare('INSERT INTO eb_replay (operation_id, payload_digest) VALUES (?, ?)').run(operationId, digest);
        return 'APPLIED';
      }
      if (seen.payload_digest === digest) return 'ALREADY_APPLIED';
      throw new ReplayConflict(operationId);
    });
    return run.immediate() as ReplayOutcome;
  }

  #rowText(table: string, id: string): string | undefined {
    const row = this.db.prepare(`SELECT payload FROM ${table} WHERE checkpoint_id = ?`).get(id) as { payload: string } | undefined;
    return row?.payload;
  }

  #row(table: string, id: string): { record_version: string; payload: string } | undefined {
    return this.db.prepare(`SELECT record_version, payload FROM ${table} WHERE checkpoint_id = ?`).get(id) as
      | { record_version: string; payload: string }
      | undefined;
  }

  /**
   * The stored checkpoint, or null when absent. Checks the record version and the decoding, but makes
   * no trust decision (a consistently tampered checkpoint still loads; use {@link loadVerification}).
   */
  loadCheckpoint(id: string): Checkpoint | null {
    const row = this.#row('eb_checkpoints', id);
    if (row === undefined) return null;
    return decodeCheckpointRow(id, row);
  }

  /**
   * The stored verification result of a checkpoint, proven bound to the stored checkpoint; null when
   * the checkpoint is absent. Fails closed on any missing row, version, malformed text, float, wrong
   * type, unknown enum, inconsistent id or broken binding.
   */
  loadVerification(id: string): VerificationResult | null {
    const cpRow = this.#row('eb_checkpoints', id);
    if (cpRow === undefined) return null;
    const receiptRow = this.#row('eb_receipts', id);
    const verificationRow = this.#row('eb_verifications', id);
    if (receiptRow === undefined || verificationRow === undefined) {
      throw new PersistenceIntegrityError(`persisted checkpoint '${id}' is missing receipt or verification state`);
    }
    const cp = decodeCheckpointRow(id, cpRow);
    if (receiptRow.record_version !== '1') {
      throw new UnsupportedPersistenceSchema(`unsupported receipt record version '${receiptRow.record_version}' for '${id}'`);
    }
    if (verificationRow.record_version !== '1') {
      throw new UnsupportedPersistenceSchema(`unsupported verification record version '${verificationRow.record_version}' for '${id}'`);
    }
    const receipt = decodeRow('receipt', receiptRow.payload, (v) => decodeProofReceipt(v, 'receipt'));
    const body = decodeRow('verification', verificationRow.payload, (v) => decodeVerificationBody(v, 'verification'));
    if (receipt.checkpoint_id !== id || body.checkpoint_id !== id) {
      throw new PersistenceIntegrityError(`persisted records for '${id}' carry inconsistent checkpoint ids`);
    }
    const result: VerificationResult = { ...body, receipt };
    if (!verifyVerificationReceipt(result, cp)) {
      throw new PersistenceIntegrityError(`persisted verification for '${id}' fails receipt/checkpoint binding`);
    }
    return result;
  }

  /** All stored checkpoints as a validated dependency graph. @throws {PersistenceIntegrityError} */
  loadGraph(): DependencyGraph<Checkpoint> {
    const rows = this.db.prepare('SELECT checkpoint_id, record_version, payload FROM eb_checkpoints ORDER BY checkpoint_id').all() as {
      checkpoint_id: string;
      record_version: string;
      payload: string;
    }[];
    const nodes = rows.map((row) => {
      const cp = decodeCheckpointRow(row.checkpoint_id, row, false);
      if (cp.checkpoint_id !== row.checkpoint_id) {
        throw new PersistenceIntegrityError('checkpoint row key differs from serialized checkpoint_id');
      }
      return cp;
    });
    try {
      return new DependencyGraph(nodes);
    } catch (error) {
      if (GraphError.isInstance(error)) {
        throw new PersistenceIntegrityError(`persisted dependency graph is invalid: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }

  /**
   * The graph and the bound verification of every checkpoint, in topological order. Any failure
   * fails the whole load; nothing is silently dropped.
   */
  loadRecoveryState(): { graph: DependencyGraph<Checkpoint>; verification: Map<string, VerificationResult> } {
    const graph = this.loadGraph();
    const verification = new Map<string, VerificationResult>();
    for (const id of graph.topologicalOrder()) verification.set(id, this.loadVerification(id) as VerificationResult);
    return { graph, verification };
  }

  /** Row counts per table (diagnostics and tests). */
  rowCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const t of ['eb_checkpoints', 'eb_receipts', 'eb_verifications', 'eb_replay']) {
      out[t] = (this.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    }
    return out;
  }

  close(): void {
    this.db.close();
  }
}

/** The eight-key verification row (the result without `receipt`). */
function verificationBodyPayload(body: Omit<VerificationResult, 'receipt'>): Record<string, unknown> {
  return {
    checkpoint_id: body.checkpoint_id,
    integrity: body.integrity,
    applicability: body.applicability,
    action: body.action,
    provenance_complete: body.provenance_complete,
    policy_compatible: body.policy_compatible,
    evidence: body.evidence.map((a) => ({
      evidence_id: a.evidence_id,
      state: a.state,
      snapshot_digest: a.snapshot_digest,
      current_digest: a.current_digest,
      reason: a.reason,
    })),
    reasons: [...body.reasons],
  };
}

function decodeRow<T>(what: string, text: string, decode: (value: unknown) => T): T {
  let value: unknown;
  try {
    value = readJsonExact(text);
    // Stricter than the reference (docs/spec/receipts.md §9.5): the stored bytes must be exactly the canonical form.
    if (ebcj1String(value) !== text) throw new PersistenceIntegrityError(`non-canonical stored text for ${what}`);
  } catch (error) {
    if (PersistenceIntegrityError.isInstance(error)) throw error;
    if (CanonicalizationError.isInstance(error)) throw new PersistenceIntegrityError(`malformed canonical JSON for ${what}`, { cause: error });
    throw error;
  }
  try {
    return decode(value);
  } catch (error) {
    if (ReceiptFormatError.isInstance(error)) throw new PersistenceIntegrityError(error.message, { cause: error });
    throw error;
  }
}

function decodeCheckpointRow(id: string, row: { record_version: string; payload: string }, checkId = true): Checkpoint {
  if (row.record_version !== '1') {
    throw new UnsupportedPersistenceSchema(`unsupported checkpoint record version '${row.record_version}' for '${id}'`);
  }
  const cp = decodeRow('checkpoint', row.payload, (v) => decodeCheckpoint(v, 'checkpoint'));
  if (cp.schema_version !== '1') throw new UnsupportedPersistenceSchema(`unsupported checkpoint schema version: '${cp.schema_version}'`);
  if (checkId && cp.checkpoint_id !== id) {
    throw new PersistenceIntegrityError('checkpoint row key differs from serialized checkpoint_id');
  }
  return cp;
}
