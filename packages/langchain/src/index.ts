/**
 * @ewp/langchain — EWP warrant for LangChain and LangGraph memory: a BaseStore wrapper, a chat
 * history wrapper, a retriever wrapper and a consolidation gate.
 * @packageDocumentation
 */
export {
  EvidenceChatMessageHistory,
  type EvidenceChatMessageHistoryOptions,
} from './chat/evidence-chat-message-history.js';
export {
  type ConsolidateOptions,
  type ConsolidateResult,
  consolidate,
  type InheritedStatus,
} from './consolidate/consolidate.js';
export { BaseStoreLedger, type BaseStoreLedgerOptions, DEFAULT_EWP_NAMESPACE } from './ledger/base-store-ledger.js';
export { BaseStoreRecordStore } from './ledger/base-store-record-store.js';
export { LANGCHAIN_ERROR_CODES, type LangChainErrorCode, ReservedNamespaceError } from './ledger/reserved-namespace-error.js';
export {
  type DocumentWarrant,
  WarrantRetriever,
  type WarrantRetrieverOptions,
} from './retriever/warrant-retriever.js';
export { itemLocator, type MemoryOrigin } from './store/item-assertion.js';
export {
  type WarrantedItem,
  type WarrantedSearchItem,
  WarrantedStore,
  type WarrantedStoreOptions,
} from './store/warranted-store.js';
export { type EwpToolArtifact, ewpLangChainTools } from './tools/ewp-tools.js';
export { gateLangChainTool } from './gate/gate-tool.js';
export type { GateInterrupt, GateResume } from './gate/gated-call.js';
