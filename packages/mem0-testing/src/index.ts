/**
 * Test and example helpers, not part of the adapter: a local Mem0 platform API server that the real
 * `MemoryClient` talks to, and a real open-source `Memory` configured to run offline.
 * @packageDocumentation
 */
export { deterministicEmbedder } from './deterministic-embedder.js';
export { startMem0RestServer, type HostedMemoryRecord, type Mem0RestServer } from './mem0-rest-server.js';
export { offlineMemory } from './offline-memory.js';
