/**
 * Typed errors of @ewp/receipts. Each has a stable `code`; the message wording follows the Python
 * reference where it has one (informational, SPEC vectors README), the code is the contract.
 */

/** Base class of every error this package throws on bad input or broken state. */
export class ReceiptsError extends Error {
  /** Stable, machine-readable code. */
  readonly code: string;
  /** JSON path (or field name) of the offending value, when there is one. */
  readonly path: string | undefined;
  constructor(code: string, message: string, path?: string) {
    super(message);
    this.name = 'ReceiptsError';
    this.code = code;
    this.path = path;
  }
}

/** A timestamp is naive, malformed or out of range (SPEC §3.2; the reference's ValueError). */
export class TimestampError extends ReceiptsError {
  constructor(code: 'NAIVE_TIMESTAMP' | 'BAD_TIMESTAMP', message: string, path?: string) {
    super(code, message, path);
    this.name = 'TimestampError';
  }
}

/** The checkpoint facade refused to create a checkpoint (SPEC §2.5; the reference's ValueError). */
export class CheckpointError extends ReceiptsError {
  constructor(code: 'DUPLICATE_CHECKPOINT_ID' | 'DUPLICATE_EVIDENCE_IDS' | 'UNKNOWN_DEPENDENCIES', message: string) {
    super(code, message);
    this.name = 'CheckpointError';
  }
}

/** A dependency graph is malformed, or a query names an unknown node (SPEC §6). */
export class GraphError extends ReceiptsError {
  constructor(code: 'DUPLICATE_ID' | 'MISSING_DEPENDENCY' | 'CYCLE' | 'UNKNOWN_CHECKPOINT', message: string) {
    super(code, message);
    this.name = 'GraphError';
  }
}

/** A receipt could not be signed (SPEC §5.2). */
export class SigningError extends ReceiptsError {
  constructor(
    code: 'KEY_NOT_ACTIVE' | 'BLANK_ALGORITHM' | 'BLANK_KEY_ID' | 'RECEIPT_VERSION' | 'CANONICALIZATION_VERSION' | 'EMPTY_SIGNATURE',
    message: string,
  ) {
    super(code, message);
    this.name = 'SigningError';
  }
}

/** An operation id was reused with a different payload (SPEC §8). The first digest is kept. */
export class ReplayConflict extends ReceiptsError {
  readonly operationId: string;
  constructor(operationId: string) {
    super('REPLAY_CONFLICT', `operation id '${operationId}' was reused with a different payload`);
    this.name = 'ReplayConflict';
    this.operationId = operationId;
  }
}

/** A structured value (checkpoint, receipt, result, envelope) has a missing or mistyped field. */
export class ReceiptFormatError extends ReceiptsError {
  constructor(path: string, message: string) {
    super('BAD_FORMAT', message, path);
    this.name = 'ReceiptFormatError';
  }
}

/** Persistence was used wrongly (SPEC §9.4): e.g. a payload without an operation id. */
export class PersistenceError extends ReceiptsError {
  constructor(message: string, code = 'PERSISTENCE') {
    super(code, message);
    this.name = 'PersistenceError';
  }
}

/** Stored state does not prove what it claims; loading fails closed (SPEC §9.4–9.5). */
export class PersistenceIntegrityError extends PersistenceError {
  constructor(message: string) {
    super(message, 'PERSISTENCE_INTEGRITY');
    this.name = 'PersistenceIntegrityError';
  }
}

/** The persisted schema or a record version is not one this package reads (SPEC §9.3). */
export class UnsupportedPersistenceSchema extends PersistenceError {
  constructor(message: string) {
    super(message, 'UNSUPPORTED_SCHEMA');
    this.name = 'UnsupportedPersistenceSchema';
  }
}
