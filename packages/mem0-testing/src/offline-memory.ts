import { InvalidArgumentError } from '@ewp/core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { deterministicEmbedder } from './deterministic-embedder.js';
import type { OssMemoryLike } from '@ewp/mem0';

/**
 * Builds a real open-source Mem0 `Memory` that never touches the network: the deterministic local
 * embedder, an LLM that refuses to run (the adapter writes with `infer: false`), the SQLite
 * `memory` vector store and history under `dir`, telemetry off.
 */
export async function offlineMemory(dir: string, options: { dimension?: number; collectionName?: string } = {}): Promise<OssMemoryLike> {
  mkdirSync(dir, { recursive: true });
  // mem0ai/oss reads these when the module loads.
  process.env.MEM0_TELEMETRY ??= 'false';
  process.env.MEM0_DIR ??= dir;
  const { Memory } = await import('mem0ai/oss');
  const dimension = options.dimension ?? 64;
  const refusingLlm = {
    invoke: async () => {
      throw new InvalidArgumentError('infer', 'offline Mem0 has no LLM configured: write with infer: false');
    },
  };
  return new Memory({
    version: 'v1.1',
    embedder: { provider: 'langchain', config: { model: deterministicEmbedder(dimension), embeddingDims: dimension } },
    vectorStore: {
      provider: 'memory',
      config: { collectionName: options.collectionName ?? 'ewp', dimension, dbPath: join(dir, 'vectors.db') },
    },
    llm: { provider: 'langchain', config: { model: refusingLlm } },
    historyDbPath: join(dir, 'history.db'),
  }) as unknown as OssMemoryLike;
}
