import { StoreUnavailableError } from '@ewp/ledger';
import { entityFilters, type Mem0Backend, type Mem0Entity, type StoredMemory } from './mem0-backend.js';

/** The subset of `mem0ai/oss` `Memory` the adapter calls. */
export interface OssMemoryLike {
  add(messages: { role: 'user' | 'assistant'; content: string }[], config: Record<string, unknown>): Promise<unknown>;
  getAll(config: Record<string, unknown>): Promise<{ results: Record<string, unknown>[] }>;
  search(query: string, config: Record<string, unknown>): Promise<{ results: Record<string, unknown>[] }>;
}

function toStored(item: Record<string, unknown>): StoredMemory {
  const metadata = { ...((item.metadata as Record<string, unknown> | undefined) ?? {}) };
  const expiration = metadata.expiration_date;
  delete metadata.expiration_date;
  return {
    id: String(item.id),
    text: String(item.memory ?? ''),
    metadata,
    hash: typeof item.hash === 'string' ? item.hash : undefined,
    createdAt: typeof item.createdAt === 'string' ? item.createdAt : undefined,
    updatedAt: typeof item.updatedAt === 'string' ? item.updatedAt : undefined,
    expirationDate: typeof expiration === 'string' ? expiration : null,
    score: typeof item.score === 'number' ? item.score : undefined,
  };
}

/**
 * Backend over the open-source `Memory`. Its `getAll` does not page, so the adapter asks for
 * `readLimit` memories and refuses a read that returns that many (it may be truncated).
 */
export function ossBackend(memory: OssMemoryLike, entity: Mem0Entity, readLimit = 10_000): Mem0Backend {
  const scope = entityFilters(entity);
  const list = async (extra: Record<string, unknown>): Promise<StoredMemory[]> => {
    const { results } = await memory.getAll({ filters: { ...scope, ...extra }, topK: readLimit, showExpired: true });
    if (results.length >= readLimit) {
      throw new StoreUnavailableError(
        'truncated',
        `mem0 getAll returned ${results.length} memories, the read limit (${readLimit}); the listing may be truncated`,
      );
    }
    return results.map(toStored);
  };
  return {
    kind: 'oss',
    async add(text, metadata, options) {
      await memory.add([{ role: 'user', content: text }], {
        ...entity,
        metadata,
        infer: false,
        ...(options?.expirationDate ? { expirationDate: options.expirationDate } : {}),
      });
    },
    list,
    async search(query, metadata, limit) {
      const { results } = await memory.search(query, { filters: { ...scope, ...metadata }, topK: limit, showExpired: true });
      return results.map(toStored);
    },
  };
}
