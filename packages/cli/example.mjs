import { execFileSync } from 'node:child_process';

// The `ewp` command (here through npx, as `npx -y @ewp/cli` runs it): evaluate views given as JSON lines on stdin.
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
  evaluated_at: '2026-03-03T09:00:00Z',
};
// Each line is {"view": <view>, "evaluated_at": T}; the result line is the WarrantView at T.
console.log(execFileSync('npx', ['ewp', 'eval', '--jsonl'], { input: `${JSON.stringify({ view, evaluated_at: view.evaluated_at })}\n`, encoding: 'utf8' }));
