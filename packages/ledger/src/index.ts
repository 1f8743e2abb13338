/**
 * @ewp/ledger — the EvidenceStore contract, an in-memory store, the JSON-file store and the
 * hash-chained event log.
 * @packageDocumentation
 */

export {
  ImmutableRecordError,
  type ImmutableRecordKind,
  InvalidEntryError,
  LEDGER_ERROR_CODES,
  LedgerError,
  type LedgerErrorCode,
  MissingViewError,
  missingViewMessage,
  StoreUnavailableError,
  type StoreUnavailableReason,
} from './errors.js';
export type * from './evidence-store.js';
export type {
  BindingRequest,
  EntryKey,
  EntryRowQuery,
  EntrySubjectRow,
  LedgerBackend,
  LedgerReader,
  LedgerWriter,
  ListedSnapshotRow,
  MaybePromise,
  NewSnapshotRow,
  SnapshotRow,
  StoredBinding,
  StoredBindingRow,
  StoredEntryRow,
} from './ledger-backend.js';
export { entryKey } from './ledger-entries.js';
export { LedgerEngineStore, sealView } from './ledger-engine.js';
export { MemoryEvidenceStore, type MemoryEvidenceStoreOptions } from './memory-store.js';
export { type Binding, type BindingKind, bindingKey } from './snapshot-layout.js';
export { JsonFileEvidenceStore, type JsonFileStoreOptions } from './json-file-store.js';
export { type FileLockOwner, type HeldFileLock, tryFileLock, withFileLock } from './file-lock.js';
export {
  COMMIT_RECORD_META,
  type CommitRecord,
  type CommitRecordFamily,
  type CommitRecordHit,
  type CommitRecordQuery,
  type CommitRecordStore,
  commitQueryMetadata,
  commitRecordFromMetadata,
  commitRecordMetadata,
} from './commit-record-store.js';
export { COMMIT_RECORD_LIMITS, CommitRecordBackend, type CommitRecordBackendOptions } from './commit-record-backend.js';
export {
  type CommitRecordChainVerification,
  CommitRecordEvidenceStore,
  type CommitRecordEvidenceStoreOptions,
  type StoreSearchOptions,
} from './commit-record-evidence-store.js';
export { MemoryCommitRecordStore } from './commit-record-memory-store.js';
export { makeDirectories } from './make-directories.js';
export { TurnRevision } from './turn-revision.js';
