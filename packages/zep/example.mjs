import { ZepClient } from '@getzep/zep-cloud';
import { ZepAdapter } from '@ewp/zep';

// Needs a Zep: Zep Cloud with ZEP_API_KEY, or a Zep-compatible server with ZEP_BASE_URL (and its key).
if (!process.env.ZEP_API_KEY) {
  console.log('Set ZEP_API_KEY (and ZEP_BASE_URL for a server other than Zep Cloud) to run this example against Zep.');
  process.exit(0);
}
const client = new ZepClient({ apiKey: process.env.ZEP_API_KEY, baseUrl: process.env.ZEP_BASE_URL });
const graphId = `ewp-example-${Date.now()}`;
await client.graph.create({ graphId });
const store = new ZepAdapter({ client, graphId }); // an EvidenceStore
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
await client.graph.delete(graphId);
