import { decodeView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';

const source = {
  source_id: 'chat-1',
  lineage_id: 'L-chat-1',
  origin_type: 'turn',
  origin_locator: 'chat 1, message 4',
  snapshot_id: 'chat-1',
  content_hash: 'sha256:chat-1',
  observed_at: '2026-03-02T15:10:00Z',
};
const view = decodeView({
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

const store = new MemoryEvidenceStore(); // or new JsonFileEvidenceStore('./ledger')
console.log(await store.put(view)); // { status: 'stored', view_id }
const latest = await store.get('P-db-version'); // the newest committed snapshot
console.log(warrantNow(latest, REFERENCE_V2, '2026-03-03T09:00:00Z').warrant.acceptance); // TENTATIVE
console.log((await store.verifyChain()).ok); // true: every event since genesis still links
