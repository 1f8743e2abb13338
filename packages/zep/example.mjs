import { ZepClient } from '@getzep/zep-cloud';
import { ZepAdapter } from '@ewp/zep';
import { startZepGraphServer } from '@ewp/zep/testing';

// Zep Cloud: new ZepClient({ apiKey: process.env.ZEP_API_KEY }). Offline here: the local server that speaks Zep's v2 graph API.
const local = await startZepGraphServer();
const client = new ZepClient({ apiKey: local.apiKey, baseUrl: local.baseUrl });
await client.graph.create({ graphId: 'agent-7-evidence' });
const store = new ZepAdapter({ client, graphId: 'agent-7-evidence' }); // an EvidenceStore
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
}); // waits until Zep has processed the episodes
console.log((await store.get('P-db-version'))?.view_id); // digest-verified, or StoreUnavailableError ('damaged')
await local.close();
