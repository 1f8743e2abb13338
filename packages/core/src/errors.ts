/**
 * Typed refusals. Every error the kernel throws is an {@link EwpError} with a stable `code`;
 * view refusals also carry the JSON path of the offending value and the rule of docs/spec/protocol.md §4 that refused it.
 */
import type { EwpErrorCode } from './error-codes.js';

/** Stable codes for view refusals (docs/spec/protocol.md §4). */
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

export type { ErrorCodeTable, EwpErrorCode } from './error-codes.js';

const BASE_MARKER = Symbol.for('ewp.error');

/** Options every {@link EwpError} accepts. */
export interface EwpErrorOptions {
  /** JSON path of the offending value (`$.checks[2].result`), when there is one. */
  path?: string | undefined;
  /** The underlying error, when this one wraps another. */
  cause?: unknown;
}

/**
 * The one base of every error an `@ewp/*` package throws on bad input or broken state: a stable
 * `code`, an optional JSON `path`, and `cause`.
 *
 * `Code` is the set of codes the error may carry. `new EwpError(code, …)` takes a code of core's
 * {@link EWP_ERROR_CODES}; a package that owns codes (its own {@link ErrorCodeTable}) names them,
 * `class CliError extends EwpError<CliErrorCode>` or `new EwpError<CliErrorCode>('USAGE', …)`. A
 * caught error's `code` is a `string`: compare it with the codes you handle.
 *
 * Test with `EwpError.isInstance(e)` (or `SomeSubclass.isInstance(e)`), not `instanceof`: the
 * check reads a `Symbol.for` marker, so it holds when two copies of a package are installed.
 * A subclass that wants its own check declares `static override readonly marker = Symbol.for('ewp.error.Name')`.
 */
export class EwpError<Code extends string = string> extends Error {
  /** The marker `isInstance` looks for; every instance carries the markers of its class chain. */
  static readonly marker: symbol = BASE_MARKER;
  /** Stable, machine-readable code. */
  readonly code: Code;
  /** JSON path of the offending value, when there is one. */
  readonly path: string | undefined;

  /** @param code a core code, or one of `Code` when the class (or type argument) names the codes */
  constructor(code: string extends Code ? EwpErrorCode : NoInfer<Code>, message: string, options: EwpErrorOptions | string = {}) {
    const { path, cause } = typeof options === 'string' ? { path: options, cause: undefined } : options;
    super(path === undefined ? message : `${path}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'EwpError';
    // When Code is `string` the parameter is narrower (a core code), so it is always a Code.
    this.code = code as Code;
    this.path = path;
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, 'marker')) {
        Object.defineProperty(this, (c as unknown as { marker: symbol }).marker, { value: true });
      }
    }
  }

  /** True when `error` is an instance of this class (or a subclass), from any installed copy. */
  static isInstance<T extends abstract new (...args: never[]) => EwpError>(this: T & { readonly marker: symbol }, error: unknown): error is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class isInstance is called on, so a subclass checks its own marker
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[this.marker] === true;
  }
}

/** The view breaks a rule of docs/spec/protocol.md §4 (or is not JSON). Nothing was evaluated. */
export class InvalidEvidenceView extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidEvidenceView');
  /** The rule of docs/spec/protocol.md §4 that refused the view (`S4`, `T6`, `B1`, `I5`, …). */
  readonly rule: string;
  declare readonly code: InvalidViewCode;
  declare readonly path: string;
  constructor(code: InvalidViewCode, rule: string, path: string, message: string) {
    super(code, message, path);
    this.name = 'InvalidEvidenceView';
    this.rule = rule;
  }
}

/** The policy identity is not `reference-v2` / `reference-v2` (docs/spec/protocol.md §1). */
export class UnknownPolicy extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.UnknownPolicy');
  constructor(message: string) {
    super('UNKNOWN_POLICY', message);
    this.name = 'UnknownPolicy';
  }
}

/** T is missing, not a string, or not an instant under docs/spec/protocol.md §5. */
export class InvalidEvaluatedAt extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidEvaluatedAt');
  constructor(message: string, path = '$.evaluated_at') {
    super('BAD_EVALUATED_AT', message, path);
    this.name = 'InvalidEvaluatedAt';
  }
}

/** A time parses but its UTC instant lies outside years 1–9999 (docs/spec/protocol.md §5.4). */
export class TimestampOutOfRange extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.TimestampOutOfRange');
  constructor(path: string, value: string) {
    super('TIMESTAMP_OUT_OF_RANGE', `date value out of range: ${JSON.stringify(value)}`, path);
    this.name = 'TimestampOutOfRange';
  }
}

/** An action or risk policy passed to `mayAct` is malformed (docs/spec/protocol.md §9). */
export class InvalidAction extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidAction');
  constructor(message: string, path: string) {
    super('INVALID_ACTION', message, path);
    this.name = 'InvalidAction';
  }
}

/** A warrant passed to `mayAct` does not carry valid axes (it cannot have come from `warrantNow`). */
export class InvalidWarrant extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidWarrant');
  constructor(message: string, path: string) {
    super('INVALID_WARRANT', message, path);
    this.name = 'InvalidWarrant';
  }
}

/**
 * A library call got an argument it cannot use (a missing store, a limit that is not a positive
 * integer, an option outside its values). `path` names the argument (`limit`, `options.k`), so the
 * message reads `limit: must be a positive integer, got 0`. Nothing was done.
 */
export class InvalidArgumentError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidArgumentError');
  declare readonly path: string;
  constructor(argument: string, message: string, options: { cause?: unknown } = {}) {
    super('EWP_REFUSE_INVALID_ARGUMENT', message, { path: argument, cause: options.cause });
    this.name = 'InvalidArgumentError';
  }
}
