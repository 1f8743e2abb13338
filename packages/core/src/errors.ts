/**
 * Typed refusals. Every error the kernel throws is an {@link EwpError} with a stable `code`;
 * view refusals also carry the JSON path of the offending value and the SPEC rule.
 */

/** Stable codes for view refusals (SPEC §4). */
export type InvalidViewCode =
  | 'JSON_SYNTAX'
  | 'NOT_AN_OBJECT'
  | 'MISSING_FIELD'
  | 'WRONG_TYPE'
  | 'EMPTY_STRING'
  | 'UNSUPPORTED_TEXT_VALUE'
  | 'UNKNOWN_ENUM_VALUE'
  | 'NOT_AN_ID_LIST'
  | 'OUT_OF_RANGE'
  | 'NOT_FINITE'
  | 'UNBOUND_PROPOSITION'
  | 'DUPLICATE_ID'
  | 'SOURCE_REF_MISMATCH';

export type EwpErrorCode =
  | InvalidViewCode
  | 'UNKNOWN_POLICY'
  | 'BAD_EVALUATED_AT'
  | 'TIMESTAMP_OUT_OF_RANGE'
  | 'INVALID_ACTION'
  | 'INVALID_WARRANT';

/** Base class of every error the kernel throws on bad input. */
export class EwpError extends Error {
  /** Stable, machine-readable code. */
  readonly code: EwpErrorCode;
  /** JSON path of the offending value (`$.checks[2].result`), when there is one. */
  readonly path: string | undefined;
  constructor(code: EwpErrorCode, message: string, path?: string) {
    super(path === undefined ? message : `${path}: ${message}`);
    this.name = 'EwpError';
    this.code = code;
    this.path = path;
  }
}

/** The view breaks a rule of SPEC §4 (or is not JSON). Nothing was evaluated. */
export class InvalidEvidenceView extends EwpError {
  /** The SPEC rule that refused the view (`S4`, `T6`, `B1`, `I5`, …). */
  readonly rule: string;
  declare readonly code: InvalidViewCode;
  declare readonly path: string;
  constructor(code: InvalidViewCode, rule: string, path: string, message: string) {
    super(code, message, path);
    this.name = 'InvalidEvidenceView';
    this.rule = rule;
  }
}

/** The policy identity is not `reference-v2` / `reference-v2` (SPEC §1). */
export class UnknownPolicy extends EwpError {
  constructor(message: string) {
    super('UNKNOWN_POLICY', message);
    this.name = 'UnknownPolicy';
  }
}

/** T is missing, not a string, or not an instant under SPEC §5. */
export class InvalidEvaluatedAt extends EwpError {
  constructor(message: string, path = '$.evaluated_at') {
    super('BAD_EVALUATED_AT', message, path);
    this.name = 'InvalidEvaluatedAt';
  }
}

/** A time parses but its UTC instant lies outside years 1–9999 (SPEC §5.4). */
export class TimestampOutOfRange extends EwpError {
  constructor(path: string, value: string) {
    super('TIMESTAMP_OUT_OF_RANGE', `date value out of range: ${JSON.stringify(value)}`, path);
    this.name = 'TimestampOutOfRange';
  }
}

/** An action or risk policy passed to `mayAct` is malformed (SPEC §9). */
export class InvalidAction extends EwpError {
  constructor(message: string, path: string) {
    super('INVALID_ACTION', message, path);
    this.name = 'InvalidAction';
  }
}

/** A warrant passed to `mayAct` does not carry valid axes (it cannot have come from `warrantNow`). */
export class InvalidWarrant extends EwpError {
  constructor(message: string, path: string) {
    super('INVALID_WARRANT', message, path);
    this.name = 'InvalidWarrant';
  }
}
