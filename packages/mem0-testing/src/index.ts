/**
 * @ewp/mem0-testing — test doubles of Mem0, private to the repository (never published): a local
 * Mem0 platform API server that the real `MemoryClient` talks to, a real open-source `Memory`
 * configured to run offline, and its deterministic embedder. The offline conformance subjects are
 * in `@ewp/mem0-testing/conformance`.
 * @packageDocumentation
 */
export { deterministicEmbedder } from './deterministic-embedder.js';
export { startMem0RestServer, type HostedMemoryRecord, type Mem0RestServer } from './mem0-rest-server.js';
export { offlineMemory } from './offline-memory.js';
