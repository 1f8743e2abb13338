import { InvalidArgumentError } from '@ewp/core';

/** One memory as both Mem0 clients return it, normalised. */
export interface StoredMemory {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
  hash?: string;
  createdAt?: string;
  updatedAt?: string;
  /** Mem0's own expiry (YYYY-MM-DD); store-local, never part of warrant. */
  expirationDate?: string | null;
  /** Search relevance; only set on search results. */
  score?: number;
}

/** The entity a Mem0 adapter writes under (Mem0 requires at least one). */
export interface Mem0Entity {
  userId?: string;
  agentId?: string;
  runId?: string;
}

/** A metadata value a filter can compare for equality. */
export type MetadataValue = string | number | boolean;

/** The few Mem0 operations the adapter needs, over either client. */
export interface Mem0Backend {
  readonly kind: 'oss' | 'hosted';
  /** Adds one memory verbatim (`infer: false`). */
  add(text: string, metadata: Record<string, unknown>, options?: { expirationDate?: string }): Promise<void>;
  /**
   * Every memory of the entity whose metadata equals `metadata` (`{}`: every memory), expired ones
   * included, all pages. A listing that may be truncated throws `StoreUnavailableError` (`truncated`).
   */
  list(metadata: Record<string, MetadataValue>): Promise<StoredMemory[]>;
  /** Similarity search within the entity, filtered by metadata equality. */
  search(query: string, metadata: Record<string, MetadataValue>, limit: number): Promise<StoredMemory[]>;
}

export function entityFilters(entity: Mem0Entity): Record<string, string> {
  const out: Record<string, string> = {};
  if (entity.userId !== undefined) out.user_id = entity.userId;
  if (entity.agentId !== undefined) out.agent_id = entity.agentId;
  if (entity.runId !== undefined) out.run_id = entity.runId;
  if (Object.keys(out).length === 0) throw new InvalidArgumentError('entity', 'one of userId, agentId, runId is required');
  return out;
}
