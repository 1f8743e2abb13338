/**
 * @ewp/mem0 — an EvidenceStore kept in Mem0 (the open-source `Memory` or the hosted
 * `MemoryClient`): the shared ledger engine on the commit-record protocol, one memory per record.
 * @packageDocumentation
 */
import { hostedBackend, type HostedClientLike } from './hosted-backend.js';
import { type Mem0AdapterOptions, Mem0EvidenceStore } from './mem0-adapter.js';
import type { Mem0Entity } from './mem0-backend.js';
import { ossBackend, type OssMemoryLike } from './oss-backend.js';

export { type Mem0AdapterOptions, Mem0EvidenceStore } from './mem0-adapter.js';
export type { Mem0Backend, Mem0Entity, MetadataValue, StoredMemory } from './mem0-backend.js';
export { ossBackend, type OssMemoryLike } from './oss-backend.js';
export { hostedBackend, type HostedClientLike } from './hosted-backend.js';
export { META_NAMESPACE, nativeView } from './native-memory.js';
export { META, Mem0RecordStore } from './mem0-record-store.js';

function pickEntity(e: Mem0Entity): Mem0Entity {
  const out: Mem0Entity = {};
  if (e.userId !== undefined) out.userId = e.userId;
  if (e.agentId !== undefined) out.agentId = e.agentId;
  if (e.runId !== undefined) out.runId = e.runId;
  return out;
}

/** An EvidenceStore over an open-source `Memory` (from `mem0ai/oss`), scoped to one entity. */
export function mem0Adapter(memory: OssMemoryLike, entity: Mem0Entity & Mem0AdapterOptions & { readLimit?: number }): Mem0EvidenceStore {
  return new Mem0EvidenceStore(ossBackend(memory, pickEntity(entity), entity.readLimit), entity);
}

/** An EvidenceStore over the hosted `MemoryClient` (from `mem0ai`), scoped to one entity. */
export function mem0HostedAdapter(
  client: HostedClientLike,
  entity: Mem0Entity & Mem0AdapterOptions & { pageSize?: number; readLimit?: number },
): Mem0EvidenceStore {
  return new Mem0EvidenceStore(hostedBackend(client, pickEntity(entity), entity), entity);
}
