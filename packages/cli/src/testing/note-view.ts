/** One small view (an agent's note, TENTATIVE at {@link NOTE_T}) shared by the serve tests. */
export const NOTE_T = '2026-09-21T21:00:00+00:00';

export const noteSource = {
  source_id: 'chat-1',
  lineage_id: 'L-chat',
  origin_type: 'extract',
  origin_locator: 'loc:chat',
  snapshot_id: 'snap:chat',
  content_hash: 'sha256:chat',
  observed_at: '2026-09-01T00:00:00+00:00',
};

export const noteView = {
  proposition_id: 'P-note',
  view_id: 'v1',
  assertions: [
    { assertion_id: 'a1', text: 'deploys on Friday', asserted_by: 'agent', assertion_confidence: 0.7, source: noteSource, asserted_at: '2026-09-01T00:00:00Z' },
  ],
};
