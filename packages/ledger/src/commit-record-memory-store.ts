/**
 * A {@link CommitRecordStore} in process memory: the reference the protocol's own tests run on, and
 * a model of what a real store (Mem0, Zep, a BaseStore) is asked to do.
 */
import type { CommitRecord, CommitRecordQuery, CommitRecordStore } from './commit-record-store.js';

/** Whether `record` has every field `query` names. */
export function matchesCommitQuery(record: CommitRecord, query: CommitRecordQuery): boolean {
  return (
    (query.family === undefined || record.family === query.family) &&
    (query.ingest === undefined || record.ingest === query.ingest) &&
    (query.position === undefined || record.position === query.position) &&
    (query.proposition === undefined || record.proposition === query.proposition)
  );
}

/** Records kept in an array, copied in and out (nothing a caller holds aliases stored data). */
export class MemoryCommitRecordStore implements CommitRecordStore {
  /** The stored records in insertion order (tests tamper with them). */
  readonly records: CommitRecord[] = [];

  async put(record: CommitRecord): Promise<void> {
    this.records.push({ ...record });
  }

  async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
    return this.records.filter((r) => matchesCommitQuery(r, query)).map((r) => ({ ...r }));
  }
}
