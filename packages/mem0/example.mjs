import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mem0Adapter } from '@ewp/mem0';
import { offlineMemory } from '@ewp/mem0/testing';

// A real open-source Mem0 Memory that never touches the network (local embedder, SQLite vectors, no LLM).
// With the hosted platform: mem0HostedAdapter(new MemoryClient({ apiKey }), { userId }).
const memory = await offlineMemory(mkdtempSync(join(tmpdir(), 'ewp-mem0-')));
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
