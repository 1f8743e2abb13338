/** Stable codes of {@link Mem0AdapterError}. */
export type Mem0AdapterErrorCode =
  /** A different snapshot is already stored under this (proposition_id, view_id). */
  | 'SNAPSHOT_IMMUTABLE'
  /** An id of the new snapshot names other content in an earlier snapshot (STORES.md §1.5). */
  | 'SNAPSHOT_IDENTITY'
  /** No committed snapshot for the proposition (or for the named view_id). */
  | 'SNAPSHOT_NOT_FOUND'
  /** The memories read back do not rebuild the committed snapshot (deleted, altered, lagging or partial read). */
  | 'SNAPSHOT_INTEGRITY'
  /** Two different snapshots claim to be latest, or one view_id names two contents. */
  | 'SNAPSHOT_AMBIGUOUS'
  /** Memories of a newer ingest exist without its snapshot memory (an interrupted write). */
  | 'SNAPSHOT_INCOMPLETE'
  /** The read hit the configured read limit and may be truncated. */
  | 'READ_LIMIT'
  /** The write did not become readable within the settle timeout (hosted async processing). */
  | 'SETTLE_TIMEOUT'
  /** An EWP memory's metadata is malformed. */
  | 'BAD_RECORD';

/** Refusal raised by the Mem0 adapter; `details` names the memories involved. */
export class Mem0AdapterError extends Error {
  readonly code: Mem0AdapterErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: Mem0AdapterErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'Mem0AdapterError';
    this.code = code;
    this.details = details;
  }
}
