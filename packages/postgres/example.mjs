import { openPostgresStore } from '@ewp/postgres';

const store = await openPostgresStore({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  schema: 'ewp_readme_example', // one ledger per PostgreSQL schema; created if missing
});
const source = {
  source_id: 'chat-1',
  lineage_id: 'L-chat-1',
  origin_type: 'turn',
  origin_locator: 'chat 1, message 4',
  snapshot_id: 'chat-1',
  content_hash: 'sha256:chat-1',
  observed_at: '2026-03-02T15:10:00Z',
};
console.log(
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
  }),
); // { status: 'stored', view_id } (or 'unchanged' when this snapshot is already the newest)
console.log(await store.verifyChain()); // { ok: true, length, head }
await store.close();
