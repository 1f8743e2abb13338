import { EwpError } from '@ewp/core';

/** Stable codes for values a canonical scheme refuses (EBCJ-1 value domain, plus the text reader's codes). */
export type CanonicalizationCode =
  | 'FLOAT'
  | 'UNSAFE_NUMBER'
  | 'NON_STRING_KEY'
  | 'UNSUPPORTED_TYPE'
  | 'LONE_SURROGATE'
  | 'INTEGER_TOO_LONG'
  | 'TOO_DEEP'
  | 'CYCLE'
  | 'SPARSE_ARRAY'
  | 'DUPLICATE_KEY'
  | 'JSON_SYNTAX';

/**
 * A value (or JSON text) that a canonical scheme refuses. Nothing was written or hashed.
 * `path` is a JSON path (`$`, `$.key`, `$[3]`); it is a diagnostic, not part of any digest.
 * Test with `CanonicalizationError.isInstance(e)`.
 */
export class CanonicalizationError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.CanonicalizationError');
  /** Stable, machine-readable reason. */
  declare readonly code: CanonicalizationCode;
  /** JSON path of the offending value (for text, the message also gives the character offset). */
  declare readonly path: string;
  constructor(code: CanonicalizationCode, path: string, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { path, cause: options.cause });
    this.name = 'CanonicalizationError';
  }
}

/** JSON paths as errors name them: the one lexer's builders (keys written raw, as the reference prints them). */
export { jsonIndexPath as indexPath, jsonMemberPath as memberPath } from '@ewp/core';
