import { StoreUnavailableError } from '@ewp/ledger';
import { entityFilters, type Mem0Backend, type Mem0Entity, type MetadataValue, type StoredMemory } from './mem0-backend.js';

/** The subset of the hosted `MemoryClient` (mem0ai 3.x) the adapter calls. */
export interface HostedClientLike {
  add(messages: { role: 'user' | 'assistant'; content: string }[], options?: Record<string, unknown>): Promise<unknown>;
  getAll(options?: Record<string, unknown>): Promise<{ count: number; next: string | null; results: object[] }>;
  search(query: string, options?: Record<string, unknown>): Promise<{ results: object[] } | object[]>;
}

function iso(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  return undefined;
}

function toStored(value: object): StoredMemory {
  const item = value as Record<string, unknown>;
  return {
    id: String(item.id),
    text: String(item.memory ?? ''),
    metadata: { ...((item.metadata as Record<string, unknown> | null | undefined) ?? {}) },
    hash: typeof item.hash === 'string' ? item.hash : undefined,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
    expirationDate: typeof item.expirationDate === 'string' ? item.expirationDate : null,
    score: typeof item.score === 'number' ? item.score : undefined,
  };
}

/**
 * Backend over the hosted `MemoryClient`. Reads page through `POST /v3/memories/` (100 per
 * page) until there is no `next`; a listing during which the reported `count` moved is taken again,
 * and a total that disagrees with a steady `count` is refused (`truncated`).
 */
export function hostedBackend(
  client: HostedClientLike,
  entity: Mem0Entity,
  options: { pageSize?: number; readLimit?: number; steadyTimeoutMs?: number } = {},
): Mem0Backend {
  const scope = entityFilters(entity);
  const pageSize = options.pageSize ?? 100;
  const readLimit = options.readLimit ?? 10_000;
  const steadyTimeoutMs = options.steadyTimeoutMs ?? 15_000;
  const conditions = (metadata: Record<string, MetadataValue>) => [
    ...Object.entries(scope).map(([k, v]) => ({ [k]: v })),
    ...(Object.keys(metadata).length > 0 ? [{ metadata }] : []),
  ];
  /** One paged listing; `undefined` when the reported count moved between pages (adds still processing). */
  const listOnce = async (metadata: Record<string, MetadataValue>): Promise<StoredMemory[] | undefined> => {
    const out: StoredMemory[] = [];
    const counts = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await client.getAll({ filters: { AND: conditions(metadata) }, page, pageSize, showExpired: true });
      counts.add(res.count);
      out.push(...res.results.map(toStored));
      if (out.length > readLimit) throw new StoreUnavailableError('truncated', `mem0 listed more than the read limit of ${readLimit} memories`);
      if (!res.next || res.results.length === 0) break;
    }
    if (counts.size > 1) return undefined;
    const [reported] = counts;
    if (reported !== undefined && reported !== out.length) {
      throw new StoreUnavailableError('truncated', `mem0 reported ${reported} memories but pages held ${out.length}`);
    }
    return out;
  };
  const list = async (metadata: Record<string, MetadataValue>): Promise<StoredMemory[]> => {
    // Adds processed in the background move the count; a steady listing comes once they are done.
    const deadline = Date.now() + steadyTimeoutMs;
    for (;;) {
      const out = await listOnce(metadata);
      if (out !== undefined) return out;
      if (Date.now() >= deadline) {
        throw new StoreUnavailableError('truncated', `mem0 kept reporting another memory count while paging for ${steadyTimeoutMs} ms; no consistent listing`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    kind: 'hosted',
    async add(text, metadata, addOptions) {
      await client.add([{ role: 'user', content: text }], {
        ...entity,
        metadata,
        infer: false,
        ...(addOptions?.expirationDate ? { expirationDate: addOptions.expirationDate } : {}),
      });
    },
    list,
    async search(query, metadata, limit) {
      const res = await client.search(query, { filters: { AND: conditions(metadata) }, topK: limit, showExpired: true });
      const results = Array.isArray(res) ? res : res.results;
      return results.map(toStored);
    },
  };
}
