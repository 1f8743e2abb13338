/**
 * @ewp/zep — an EvidenceStore kept in a Zep graph (Zep Cloud, or a compatible deployment) through
 * the official `@getzep/zep-cloud` client: the shared ledger engine on the commit-record protocol.
 * Zep's own facts are read as untrusted assertions.
 * @packageDocumentation
 */
export { ZepAdapter, type ZepAdapterOptions, type ZepEpisode } from './zep-adapter.js';
export { ZepRecordStore } from './zep-record-store.js';
export { factsView, META_NAMESPACE, type ZepFact } from './native-facts.js';
export { META } from './episode-codec.js';
