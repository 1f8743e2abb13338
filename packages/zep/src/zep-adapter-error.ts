/** Stable codes of {@link ZepAdapterError}. */
export type ZepAdapterErrorCode =
  | 'SNAPSHOT_IMMUTABLE'
  /** An id of the new snapshot names other content in an earlier snapshot (STORES.md §1.5). */
  | 'SNAPSHOT_IDENTITY'
  | 'SNAPSHOT_NOT_FOUND'
  /** The episodes read back do not rebuild the committed snapshot (deleted, re-tagged, lagging or partial read). */
  | 'SNAPSHOT_INTEGRITY'
  | 'SNAPSHOT_AMBIGUOUS'
  | 'SNAPSHOT_INCOMPLETE'
  /** Episodes were not processed by Zep within the settle timeout. */
  | 'SETTLE_TIMEOUT'
  | 'BAD_RECORD';

/** Refusal raised by the Zep adapter; `details` names the episodes involved. */
export class ZepAdapterError extends Error {
  readonly code: ZepAdapterErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ZepAdapterErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ZepAdapterError';
    this.code = code;
    this.details = details;
  }
}
