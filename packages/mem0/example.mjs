import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mem0Adapter } from '@ewp/mem0';

// A real open-source Mem0 Memory that never touches the network: telemetry off (read when mem0ai/oss
// loads), a toy local embedder (letter counts; use a real one in production), SQLite vectors and history
// in a temp dir, no LLM (the adapter writes with infer: false).
// With the hosted platform: mem0HostedAdapter(new MemoryClient({ apiKey }), { userId }).
process.env.MEM0_TELEMETRY ??= 'false';
const { Memory } = await import('mem0ai/oss');
const dir = mkdtempSync(join(tmpdir(), 'ewp-mem0-'));
const embed = (text) => [...'abcdefghijklmnopqrstuvwxyz0123456789'].map((c) => text.toLowerCase().split(c).length - 1);
const memory = new Memory({
  embedder: { provider: 'langchain', config: { model: { embedQuery: async (t) => embed(t), embedDocuments: async (ts) => ts.map(embed) }, embeddingDims: 36 } },
  vectorStore: { provider: 'memory', config: { collectionName: 'ewp', dimension: 36, dbPath: join(dir, 'vectors.db') } },
  llm: { provider: 'langchain', config: { model: { invoke: () => Promise.reject(new Error('offline: no LLM')) } } },
  historyDbPath: join(dir, 'history.db'),
});
const store = mem0Adapter(memory, { userId: 'agent-7' }); // an EvidenceStore
const source = {
  source_id: 'chat-1',
  lineage_id: 'L-chat-1',
  origin_type: 'turn',
  origin_locator: 'chat 1, message 4',
  snapshot_id: 'chat-1',
  content_hash: 'sha256:chat-1',
  observed_at: '2026-03-02T15:10:00Z',
};
await store.put({
  proposition_id: 'P-db-version',
  assertions: [
    {
      assertion_id: 'a-1',
      proposition_id: 'P-db-version',
      text: 'The database runs PostgreSQL 16.',
      asserted_by: 'assistant',
      assertion_confidence: 0.9,
      asserted_at: '2026-03-02T15:10:00Z',
      source,
    },
  ],
  evidence: [],
});
const latest = await store.get('P-db-version'); // digest-verified, or StoreUnavailableError ('damaged')
console.log(latest?.view_id, latest?.assertions.length);
