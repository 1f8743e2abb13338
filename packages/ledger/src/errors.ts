/**
 * Typed store refusals. Each is an `EwpError` (from @ewp/core) with a stable `code`: the store
 * contract's codes live in core's table (every backend and tool binding raises them), the entry
 * code in {@link LEDGER_ERROR_CODES}. The CLI, the tools and adapters map them by code (or
 * `isInstance`), never by class identity or message text.
 */
import { type ErrorCodeTable, EwpError } from '@ewp/core';

/** The error codes only @ewp/ledger raises, with their meanings. */
export const LEDGER_ERROR_CODES = {
  EWP_REFUSE_INVALID_ENTRY: 'a ledger entry or entry query with a malformed kind, id, subjects, body or bound',
} as const satisfies ErrorCodeTable;

/** Stable codes of the store errors. */
export type LedgerErrorCode = 'EWP_REFUSE_IMMUTABLE_RECORD' | 'EWP_REFUSE_MISSING_VIEW' | 'EWP_REFUSE_LEDGER_UNAVAILABLE' | keyof typeof LEDGER_ERROR_CODES;

/** Base class of every error a store throws on its own account (view refusals come from @ewp/core). */
export class LedgerError extends EwpError<LedgerErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.LedgerError');
  constructor(code: LedgerErrorCode, message: string, options?: { path?: string | undefined; cause?: unknown }) {
    super(code, message, options);
    this.name = 'LedgerError';
  }
}

/** What an immutability refusal is about. */
export type ImmutableRecordKind = 'snapshot' | 'source' | 'assertion' | 'evidence' | 'check' | 'conflict' | 'entry';

/**
 * A different snapshot under an existing `(proposition_id, view_id)`, a record id reused for other
 * content (docs/spec/store-contract.md §1.2, §1.5), or a ledger entry id reused for another body.
 * Nothing was written.
 */
export class ImmutableRecordError extends LedgerError {
  static override readonly marker: symbol = Symbol.for('ewp.error.ImmutableRecordError');
  declare readonly code: 'EWP_REFUSE_IMMUTABLE_RECORD';
  /** The proposition; for recordKind `entry`, the entry's kind (entries belong to no proposition). */
  readonly propositionId: string;
  readonly recordKind: ImmutableRecordKind;
  /** The view id (kind `snapshot`), the record id or the entry id that clashed. */
  readonly recordId: string;
  constructor(propositionId: string, recordKind: ImmutableRecordKind, recordId: string, path?: string) {
    const what =
      recordKind === 'snapshot'
        ? `snapshot ${JSON.stringify(recordId)} of ${JSON.stringify(propositionId)} already exists with different content`
        : recordKind === 'entry'
          ? `entry ${JSON.stringify(recordId)} of kind ${JSON.stringify(propositionId)} is already stored with other subjects or body`
          : `${recordKind} id ${JSON.stringify(recordId)} of ${JSON.stringify(propositionId)} is already bound to other content`;
    // `path` (inherited): the offending record in the refused view (`$.checks[0]`), when there is one.
    super('EWP_REFUSE_IMMUTABLE_RECORD', what, { path });
    this.name = 'ImmutableRecordError';
    this.propositionId = propositionId;
    this.recordKind = recordKind;
    this.recordId = recordId;
  }
}

/**
 * A ledger entry, or an entry query, that breaks a rule of the entry contract (a malformed kind, an id
 * too long, a float or a lone surrogate in the body, a bad limit). `path` names the field
 * (`entries[2].body.score`); `cause` is the canonicalization error, when that found it. Nothing was written.
 */
export class InvalidEntryError extends LedgerError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidEntryError');
  declare readonly code: 'EWP_REFUSE_INVALID_ENTRY';
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super('EWP_REFUSE_INVALID_ENTRY', message, { path, cause: options?.cause });
    this.name = 'InvalidEntryError';
  }
}

/**
 * What a reader is told when a proposition has no snapshot (or not that `view_id`), with how to make
 * the first one: records can only extend a snapshot that exists.
 */
export function missingViewMessage(propositionId: string, viewId?: string): string {
  if (viewId !== undefined) return `no stored snapshot ${JSON.stringify(viewId)} for proposition ${JSON.stringify(propositionId)}`;
  return (
    `no stored snapshot for proposition ${JSON.stringify(propositionId)}: nothing is recorded for it yet. Create the first snapshot with ` +
    'ewp_evidence_view_put (a whole EvidenceView; ewp_evidence_record and ewp_check_record only extend an existing one), or record ' +
    'evidence for a claim in words: observe(tool, { claim }) in a binding, `ewp observe` on the command line'
  );
}

/** No stored snapshot for that proposition (or that `view_id`). */
export class MissingViewError extends LedgerError {
  static override readonly marker: symbol = Symbol.for('ewp.error.MissingViewError');
  declare readonly code: 'EWP_REFUSE_MISSING_VIEW';
  readonly propositionId: string;
  readonly viewId: string | undefined;
  constructor(propositionId: string, viewId?: string) {
    super('EWP_REFUSE_MISSING_VIEW', missingViewMessage(propositionId, viewId));
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
 * - `connection`: the database server could not be reached or failed;
 * - `lagging`: a store without transactions did not list the writer's own records in time (nothing
 *   committed, unless what lagged was the commit record itself: the message says which);
 * - `truncated`: a store could not list everything asked for (a read limit, short pages); nothing partial was used.
 */
export type StoreUnavailableReason = 'not_found' | 'read_only' | 'schema' | 'damaged' | 'busy' | 'closed' | 'connection' | 'lagging' | 'truncated';

/** The ledger could not be read or written. Nothing was written. */
export class StoreUnavailableError extends LedgerError {
  static override readonly marker: symbol = Symbol.for('ewp.error.StoreUnavailableError');
  declare readonly code: 'EWP_REFUSE_LEDGER_UNAVAILABLE';
  readonly reason: StoreUnavailableReason;
  constructor(reason: StoreUnavailableReason, message: string, options?: { cause?: unknown }) {
    super('EWP_REFUSE_LEDGER_UNAVAILABLE', message, { cause: options?.cause });
    this.name = 'StoreUnavailableError';
    this.reason = reason;
  }
}
