/**
 * Typed errors of @ewp/receipts. Each is an `@ewp/core` {@link EwpError} with a stable `code`, from
 * this package's {@link RECEIPTS_ERROR_CODES} or core's shared table; the message wording follows
 * the Python reference where it has one (informational), the code is the contract. Map them with
 * `X.isInstance(e)`, never `instanceof`.
 */
import { type ErrorCodeTable, EwpError, type EwpErrorCode } from '@ewp/core';

/** The error codes only @ewp/receipts raises (receipts, checkpoints, signatures, persistence), with their meanings. */
export const RECEIPTS_ERROR_CODES = {
  NAIVE_TIMESTAMP: 'a timestamp without a UTC offset',
  BAD_TIMESTAMP: 'a malformed or out-of-range timestamp',
  DUPLICATE_CHECKPOINT_ID: 'a checkpoint id used twice',
  DUPLICATE_EVIDENCE_IDS: 'an evidence id listed twice in one checkpoint',
  UNKNOWN_DEPENDENCIES: 'a checkpoint depends on checkpoints that do not exist',
  MISSING_DEPENDENCY: 'a graph node names a dependency that is not in the graph',
  UNKNOWN_CHECKPOINT: 'no checkpoint of that id',
  KEY_NOT_ACTIVE: 'the signing key is not active at that time',
  BLANK_ALGORITHM: 'a signature without an algorithm',
  BLANK_KEY_ID: 'a signature without a key id',
  RECEIPT_VERSION: 'an unknown receipt version',
  CANONICALIZATION_VERSION: 'an unknown canonicalization version',
  EMPTY_SIGNATURE: 'an empty signature',
  REPLAY_CONFLICT: 'an operation id reused with another payload',
  BAD_FORMAT: 'a receipt or envelope that is not well formed',
  PERSISTENCE: 'the receipt store could not be read or written',
  PERSISTENCE_INTEGRITY: 'stored receipts fail their integrity check',
  UNSUPPORTED_SCHEMA: 'a receipt store of another schema version',
} as const satisfies ErrorCodeTable;

/** A code of {@link RECEIPTS_ERROR_CODES}. */
export type ReceiptsErrorCode = keyof typeof RECEIPTS_ERROR_CODES;

/** Base class of every error this package throws on bad input or broken state. */
export class ReceiptsError extends EwpError<ReceiptsErrorCode | EwpErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.ReceiptsError');
  constructor(code: ReceiptsErrorCode | EwpErrorCode, message: string, options: { path?: string | undefined; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'ReceiptsError';
  }
}

/** A timestamp is naive, malformed or out of range (the reference's ValueError). */
export class TimestampError extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.TimestampError');
  declare readonly code: 'NAIVE_TIMESTAMP' | 'BAD_TIMESTAMP';
  constructor(code: 'NAIVE_TIMESTAMP' | 'BAD_TIMESTAMP', message: string, path?: string) {
    super(code, message, { path });
    this.name = 'TimestampError';
  }
}

/** Codes of {@link CheckpointError}. */
export type CheckpointCode = 'DUPLICATE_CHECKPOINT_ID' | 'DUPLICATE_EVIDENCE_IDS' | 'UNKNOWN_DEPENDENCIES' | 'UNKNOWN_CHECKPOINT';

/** The checkpoint facade refused to create a checkpoint (the reference's ValueError), or to verify one it does not hold. */
export class CheckpointError extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.CheckpointError');
  declare readonly code: CheckpointCode;
  constructor(code: CheckpointCode, message: string) {
    super(code, message);
    this.name = 'CheckpointError';
  }
}

/** A dependency graph is malformed, or a query names an unknown node. */
export class GraphError extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.GraphError');
  declare readonly code: 'DUPLICATE_ID' | 'MISSING_DEPENDENCY' | 'CYCLE' | 'UNKNOWN_CHECKPOINT';
  constructor(code: 'DUPLICATE_ID' | 'MISSING_DEPENDENCY' | 'CYCLE' | 'UNKNOWN_CHECKPOINT', message: string) {
    super(code, message);
    this.name = 'GraphError';
  }
}

type SigningCode = 'KEY_NOT_ACTIVE' | 'BLANK_ALGORITHM' | 'BLANK_KEY_ID' | 'RECEIPT_VERSION' | 'CANONICALIZATION_VERSION' | 'EMPTY_SIGNATURE';

/** A receipt could not be signed. */
export class SigningError extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.SigningError');
  declare readonly code: SigningCode;
  constructor(code: SigningCode, message: string) {
    super(code, message);
    this.name = 'SigningError';
  }
}

/** An operation id was reused with a different payload. The first digest is kept. */
export class ReplayConflict extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.ReplayConflict');
  readonly operationId: string;
  constructor(operationId: string) {
    super('REPLAY_CONFLICT', `operation id '${operationId}' was reused with a different payload`);
    this.name = 'ReplayConflict';
    this.operationId = operationId;
  }
}

/** A structured value (checkpoint, receipt, result, envelope) has a missing or mistyped field. */
export class ReceiptFormatError extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.ReceiptFormatError');
  declare readonly path: string;
  constructor(path: string, message: string) {
    super('BAD_FORMAT', message, { path });
    this.name = 'ReceiptFormatError';
  }
}

/** Persistence was used wrongly: e.g. a payload without an operation id. */
export class PersistenceError extends ReceiptsError {
  static override readonly marker: symbol = Symbol.for('ewp.error.PersistenceError');
  constructor(message: string, code: 'PERSISTENCE' | 'PERSISTENCE_INTEGRITY' | 'UNSUPPORTED_SCHEMA' = 'PERSISTENCE', options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'PersistenceError';
  }
}

/** Stored state does not prove what it claims; loading fails closed. */
export class PersistenceIntegrityError extends PersistenceError {
  static override readonly marker: symbol = Symbol.for('ewp.error.PersistenceIntegrityError');
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, 'PERSISTENCE_INTEGRITY', options);
    this.name = 'PersistenceIntegrityError';
  }
}

/** The persisted schema or a record version is not one this package reads. */
export class UnsupportedPersistenceSchema extends PersistenceError {
  static override readonly marker: symbol = Symbol.for('ewp.error.UnsupportedPersistenceSchema');
  constructor(message: string) {
    super(message, 'UNSUPPORTED_SCHEMA');
    this.name = 'UnsupportedPersistenceSchema';
  }
}
