/**
 * @ewp/ledger — the EvidenceStore contract, an in-memory store, the JSON-file store and the
 * hash-chained event log.
 * @packageDocumentation
 */

export {
  ImmutableRecordError,
  type ImmutableRecordKind,
  LedgerError,
  type LedgerErrorCode,
  MissingViewError,
  StoreUnavailableError,
  type StoreUnavailableReason,
} from './errors.js';
export type * from './evidence-store.js';
export type {
  BindingRequest,
  LedgerBackend,
  LedgerReader,
  LedgerWriter,
  ListedSnapshotRow,
  MaybePromise,
  NewSnapshotRow,
  SnapshotRow,
  StoredBinding,
  StoredBindingRow,
} from './ledger-backend.js';
export { LedgerEngineStore, MAX_DELTA_DEPTH } from './ledger-engine.js';
export { MemoryEvidenceStore, type MemoryEvidenceStoreOptions } from './memory-store.js';
export { type Binding, type BindingKind, bindingKey, type MemberRef } from './snapshot-layout.js';
export { fileKey, JsonFileEvidenceStore, type JsonFileStoreOptions } from './json-file-store.js';
export { withFileLock } from './file-lock.js';
export { identityClash, type SnapshotBody, snapshotBody, snapshotDigest } from './snapshot-identity.js';
export type { CommitRecord, CommitRecordFamily, CommitRecordQuery, CommitRecordStore } from './commit-record-store.js';
export { MemoryCommitRecordStore, matchesCommitQuery } from './commit-record-memory-store.js';
export { makeDirectories } from './make-directories.js';
