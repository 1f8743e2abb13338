/**
 * @ewp/mem0 — stores EWP EvidenceViews in Mem0 (the open-source `Memory` or the hosted
 * `MemoryClient`) and reads them back losslessly, refusing tampered or partial reads.
 * @packageDocumentation
 */
import { hostedBackend, type HostedClientLike } from './hosted-backend.js';
import { Mem0Adapter, type Mem0AdapterOptions } from './mem0-adapter.js';
import type { Mem0Entity } from './mem0-backend.js';
import { ossBackend, type OssMemoryLike } from './oss-backend.js';

export { Mem0Adapter, type Mem0AdapterOptions, type Mem0ReadOptions, type Mem0SearchOptions, type SnapshotInspection } from './mem0-adapter.js';
export { Mem0AdapterError, type Mem0AdapterErrorCode } from './mem0-adapter-error.js';
export type { Mem0Backend, Mem0Entity, StoredMemory } from './mem0-backend.js';
export { ossBackend, type OssMemoryLike } from './oss-backend.js';
export { hostedBackend, type HostedClientLike } from './hosted-backend.js';
export { META_NAMESPACE, nativeView, type StoreNote } from './native-memory.js';
export { deterministicEmbedder } from './deterministic-embedder.js';
export { offlineMemory } from './offline-memory.js';
export { META } from './snapshot-codec.js';

function pickEntity(e: Mem0Entity): Mem0Entity {
  const out: Mem0Entity = {};
  if (e.userId !== undefined) out.userId = e.userId;
  if (e.agentId !== undefined) out.agentId = e.agentId;
  if (e.runId !== undefined) out.runId = e.runId;
  return out;
}

/** An adapter over an open-source `Memory` (from `mem0ai/oss`). */
export function mem0Adapter(memory: OssMemoryLike, entity: Mem0Entity & Mem0AdapterOptions & { readLimit?: number }): Mem0Adapter {
  return new Mem0Adapter(ossBackend(memory, pickEntity(entity), entity.readLimit), entity);
}

/** An adapter over the hosted `MemoryClient` (from `mem0ai`). */
export function mem0HostedAdapter(
  client: HostedClientLike,
  entity: Mem0Entity & Mem0AdapterOptions & { pageSize?: number; readLimit?: number },
): Mem0Adapter {
  return new Mem0Adapter(hostedBackend(client, pickEntity(entity), entity), entity);
}
