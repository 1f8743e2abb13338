import { decodeView, mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';

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
}); // throws InvalidEvidenceView { code, rule, path } on bad input

const w = warrantNow(view, REFERENCE_V2, '2026-03-03T09:00:00Z');
console.log(w.warrant.acceptance, w.warrant.verification, w.warrant.rationale_codes); // TENTATIVE NONE [...]: a chat turn, never checked
console.log(mayAct(w, { action_id: 'migrate', kind: 'db', risk: 'high', reversible: false })); // DENY
