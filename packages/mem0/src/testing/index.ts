/**
 * Test and example helpers: a local Mem0 platform API server that the real `MemoryClient` talks to.
 * @packageDocumentation
 */
export { startMem0RestServer, type HostedMemoryRecord, type Mem0RestServer } from './mem0-rest-server.js';
