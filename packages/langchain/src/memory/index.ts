/**
 * `@ewp/langchain/memory`: the evidence layer of `@ewp/memory` for LangChain and LangGraph agents: the
 * auto-context in the system prompt (`memoryContextMiddleware`) and the `memory_store` / `memory_recall`
 * tools that write and read through a `MemoryLedger`. A subpath of its own, so the main entry does not
 * load `@ewp/memory`.
 * @packageDocumentation
 */
export { type MemoryContextMiddlewareOptions, type MemorySource, memoryContextMiddleware } from './memory-middleware.js';
export { type MemoryToolArtifact, type MemoryToolsOptions, memoryTools } from './memory-tools.js';
