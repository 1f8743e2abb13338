import { ReceiptsError } from '../errors.js';

/** Stable codes for values a canonical scheme refuses (SPEC §1.1, plus the text reader's codes of §1.3). */
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
 */
export class CanonicalizationError extends ReceiptsError {
  /** Stable, machine-readable reason. */
  declare readonly code: CanonicalizationCode;
  /** JSON path of the offending value (for text, the message also gives the character offset). */
  declare readonly path: string;
  constructor(code: CanonicalizationCode, path: string, message: string) {
    super(code, `${message} at ${path}`, path);
    this.name = 'CanonicalizationError';
  }
}

/** Appends an object member to a JSON path the way the reference prints it (keys written raw). */
export function memberPath(path: string, key: string): string {
  return `${path}.${key}`;
}

/** Appends an array index to a JSON path. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}
