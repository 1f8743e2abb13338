import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';

const source = {
  source_id: 'chat-1',
  lineage_id: 'L-chat-1',
  origin_type: 'turn',
  origin_locator: 'chat 1, message 4',
  snapshot_id: 'chat-1',
  content_hash: 'sha256:chat-1',
  observed_at: '2026-03-02T15:10:00Z',
};
const view = {
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
}; // decoded and checked by put(): bad input is refused with a typed error naming the field

const store = new SqliteEvidenceStore(join(mkdtempSync(join(tmpdir(), 'ewp-')), 'ewp.sqlite')); // created with its directories
console.log(await store.put(view)); // { status: 'stored', view_id }
console.log((await store.get('P-db-version'))?.view_id, (await store.verifyChain()).ok);
await store.close();
