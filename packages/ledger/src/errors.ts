/**
 * Typed store refusals. Each carries a stable `code` (the MCP error codes of STORES.md §5), so
 * the CLI, the MCP server and adapters can map them without string matching.
 */

/** Stable codes of the store errors. */
export type LedgerErrorCode =
  | 'EWP_REFUSE_IMMUTABLE_RECORD'
  | 'EWP_REFUSE_MISSING_VIEW'
  | 'EWP_REFUSE_LEDGER_UNAVAILABLE';

/** Base class of every error a store throws on its own account (view refusals come from @ewp/core). */
export class LedgerError extends Error {
  readonly code: LedgerErrorCode;
  constructor(code: LedgerErrorCode, message: string) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
  }
}

/** What an immutability refusal is about. */
export type ImmutableRecordKind = 'snapshot' | 'source' | 'assertion' | 'evidence' | 'check' | 'conflict';

/**
 * A different snapshot under an existing `(proposition_id, view_id)`, or a record id reused for
 * other content (STORES.md §1.2, §1.5). Nothing was written.
 */
export class ImmutableRecordError extends LedgerError {
  declare readonly code: 'EWP_REFUSE_IMMUTABLE_RECORD';
  readonly propositionId: string;
  readonly recordKind: ImmutableRecordKind;
  /** The view id (kind `snapshot`) or the record id that clashed. */
  readonly recordId: string;
  /** JSON path of the offending record in the refused view (`$.checks[0]`), when there is one. */
  readonly path: string | undefined;
  constructor(propositionId: string, recordKind: ImmutableRecordKind, recordId: string, path?: string) {
    const what =
      recordKind === 'snapshot'
        ? `snapshot ${JSON.stringify(recordId)} of ${JSON.stringify(propositionId)} already exists with different content`
        : `${recordKind} id ${JSON.stringify(recordId)} of ${JSON.stringify(propositionId)} is already bound to other content`;
    super('EWP_REFUSE_IMMUTABLE_RECORD', path === undefined ? what : `${path}: ${what}`);
    this.name = 'ImmutableRecordError';
    this.propositionId = propositionId;
    this.recordKind = recordKind;
    this.recordId = recordId;
    this.path = path;
  }
}

/** No stored snapshot for that proposition (or that `view_id`). */
export class MissingViewError extends LedgerError {
  declare readonly code: 'EWP_REFUSE_MISSING_VIEW';
  readonly propositionId: string;
  readonly viewId: string | undefined;
  constructor(propositionId: string, viewId?: string) {
    super(
      'EWP_REFUSE_MISSING_VIEW',
      viewId === undefined
        ? `no stored snapshot for proposition ${JSON.stringify(propositionId)}`
        : `no stored snapshot ${JSON.stringify(viewId)} for proposition ${JSON.stringify(propositionId)}`,
    );
    this.name = 'MissingViewError';
    this.propositionId = propositionId;
    this.viewId = viewId;
  }
}

/**
 * Why a store could not be used:
 * - `not_found`: read-only open of a ledger that does not exist (nothing was created);
 * - `read_only`: a write on a store opened read-only;
 * - `schema`: the ledger has another (older or unknown) schema version; start a new ledger;
 * - `damaged`: stored data fails its digest, or the event log/anchor disagree;
 * - `busy`: the lock could not be taken within the timeout;
 * - `closed`: the store was closed;
 * - `connection`: the database server could not be reached or failed.
 */
export type StoreUnavailableReason = 'not_found' | 'read_only' | 'schema' | 'damaged' | 'busy' | 'closed' | 'connection';

/** The ledger could not be read or written. Nothing was written. */
export class StoreUnavailableError extends LedgerError {
  declare readonly code: 'EWP_REFUSE_LEDGER_UNAVAILABLE';
  readonly reason: StoreUnavailableReason;
  constructor(reason: StoreUnavailableReason, message: string, options?: { cause?: unknown }) {
    super('EWP_REFUSE_LEDGER_UNAVAILABLE', message);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}
