import { type ErrorCodeTable, EwpError } from '@ewp/core';

/**
 * The error codes only @ewp/canonical raises, with their meanings. It also raises core's
 * `LONE_SURROGATE`, `CYCLE`, `DUPLICATE_KEY` and `JSON_SYNTAX`, which other packages share.
 */
export const CANONICAL_ERROR_CODES = {
  FLOAT: 'a non-integral number where canonical JSON allows integers only',
  UNSAFE_NUMBER: 'an integer beyond the exactly representable range',
  NON_STRING_KEY: 'an object key that is not a string',
  UNSUPPORTED_TYPE: 'a value JSON cannot carry (undefined, a function, a symbol)',
  INTEGER_TOO_LONG: 'an integer literal longer than the reader allows',
  TOO_DEEP: 'nesting deeper than the reader allows',
  SPARSE_ARRAY: 'an array with holes',
  SEQ_MISMATCH: 'an event appended to a hash-chained log carries a seq other than its position',
} as const satisfies ErrorCodeTable;

/** A code of {@link CANONICAL_ERROR_CODES}. */
export type CanonicalErrorCode = keyof typeof CANONICAL_ERROR_CODES;

/** Stable codes for values a canonical scheme refuses (EBCJ-1 value domain, plus the text reader's codes). */
export type CanonicalizationCode = Exclude<CanonicalErrorCode, 'SEQ_MISMATCH'> | 'LONE_SURROGATE' | 'CYCLE' | 'DUPLICATE_KEY' | 'JSON_SYNTAX';

/**
 * A value (or JSON text) that a canonical scheme refuses. Nothing was written or hashed.
 * `path` is a JSON path (`$`, `$.key`, `$[3]`); it is a diagnostic, not part of any digest.
 * Test with `CanonicalizationError.isInstance(e)`.
 */
export class CanonicalizationError extends EwpError<CanonicalizationCode> {
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
