/**
 * @ewp/zep — stores EWP EvidenceViews in a Zep graph (Zep Cloud, or a compatible deployment)
 * through the official `@getzep/zep-cloud` client, losslessly within Zep's limits; reads Zep's
 * own facts as untrusted assertions.
 * @packageDocumentation
 */
export { ZepAdapter, type ZepAdapterOptions, type ZepEpisode } from './zep-adapter.js';
export { ZepAdapterError, type ZepAdapterErrorCode } from './zep-adapter-error.js';
export { factsView, META_NAMESPACE, type StoreNote, type ZepFact } from './native-facts.js';
export { META } from './episode-codec.js';
