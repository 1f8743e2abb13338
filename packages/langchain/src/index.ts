/**
 * @ewp/langchain — EWP warrant for LangChain and LangGraph agents: `ewpTools()` (the EWP tools as
 * LangChain tools), `observe()` (a tool's results recorded as observations of a claim), `gate()` (a tool
 * that runs only when the evidence for its claim warrants it), and memory that carries its warrant: a
 * LangGraph BaseStore wrapper, a chat history wrapper, a retriever wrapper and a consolidation gate.
 * The gate as agent middleware is `@ewp/langchain/middleware`; the memory layer `@ewp/langchain/memory`.
 * @packageDocumentation
 */
export { type EwpToolArtifact, type EwpToolsOptions, ewpTools } from './tools/ewp-tools.js';
export { gate } from './gate/gate-tool.js';
export { observe } from './observe/observe-tool.js';
export type { GateInterrupt, GateResume } from './gate/gated-call.js';
export type { GateOptions, GateRefusal, ObserveOptions } from '@ewp/tools';
export type { Warrant } from './warrant.js';
export { EvidenceChatMessageHistory, type EvidenceChatMessageHistoryOptions } from './chat/evidence-chat-message-history.js';
export { type ConsolidateOptions, type ConsolidateResult, consolidate, type InheritedStatus } from './consolidate/consolidate.js';
export { BaseStoreLedger, type BaseStoreLedgerOptions } from './ledger/base-store-ledger.js';
export { ReservedNamespaceError } from './ledger/reserved-namespace-error.js';
export { type DocumentWarrant, WarrantRetriever, type WarrantRetrieverOptions } from './retriever/warrant-retriever.js';
export type { MemoryOrigin } from './store/item-assertion.js';
export { WarrantedStore, type WarrantedItem, type WarrantedSearchItem, type WarrantedStoreOptions } from './store/warranted-store.js';
