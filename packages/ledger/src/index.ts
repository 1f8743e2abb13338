/**
 * @ewp/ledger — the EvidenceStore contract, an in-memory store, the JSON-file store and the
 * hash-chained event log.
 * @packageDocumentation
 */
export type * from './evidence-store.js';
