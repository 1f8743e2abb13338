/**
 * @ewp/langchain — EWP warrant for LangChain and LangGraph memory: a BaseStore wrapper, a chat
 * history wrapper, a retriever wrapper and a consolidation gate.
 * @packageDocumentation
 */
export { BaseStoreLedger, type BaseStoreLedgerOptions, DEFAULT_EWP_NAMESPACE } from './ledger/base-store-ledger.js';
export { LedgerRefusal, type LedgerRefusalCode } from './ledger/ledger-errors.js';
export { itemLocator, type MemoryOrigin } from './store/item-assertion.js';
export {
  type WarrantedItem,
  type WarrantedSearchItem,
  WarrantedStore,
  type WarrantedStoreOptions,
} from './store/warranted-store.js';
