/**
 * @ewp/langchain — EWP warrant for LangChain and LangGraph memory: a BaseStore wrapper, a chat
 * history wrapper, a retriever wrapper and a consolidation gate.
 * @packageDocumentation
 */
export { BaseStoreLedger, DEFAULT_EWP_NAMESPACE, type BaseStoreLedgerOptions } from './ledger/base-store-ledger.js';
export { LedgerRefusal, type LedgerRefusalCode } from './ledger/ledger-errors.js';
export { itemLocator, type MemoryOrigin } from './store/item-assertion.js';
export {
  WarrantedStore,
  type WarrantedItem,
  type WarrantedSearchItem,
  type WarrantedStoreOptions,
} from './store/warranted-store.js';
