import { type Assertion, decodeView, type EvidenceItem, type EvidenceView, type SourceRef, type StoreNote } from '@ewp/core';
import type { StoredMemory } from './mem0-backend.js';

/** The `adapter_meta` key the Mem0 adapter writes its read annotations under. */
export const META_NAMESPACE = '@ewp/mem0';

/** Mem0's own expiry dates and updates of `memories`, as store notes. */
function storeNotes(memories: StoredMemory[]): StoreNote[] {
  const notes: StoreNote[] = [];
  for (const m of memories) {
    if (m.expirationDate) notes.push({ id: m.id, note: `mem0 expiration_date ${m.expirationDate}` });
    if (m.updatedAt && m.createdAt && m.updatedAt !== m.createdAt) notes.push({ id: m.id, note: `mem0 updated_at ${m.updatedAt}` });
  }
  return notes;
}

/**
 * Maps memories Mem0 wrote on its own (LLM extraction, no EWP snapshot) to a view of P. Each
 * memory is one assertion and one supporting evidence item from an `extract` source (endogenous:
 * it can never verify), with its own lineage. The scope `mem0.unverified` makes the view DEGRADED.
 */
export function nativeView(propositionId: string, memories: StoredMemory[], client: 'oss' | 'hosted'): EvidenceView {
  const assertions: Assertion[] = [];
  const evidence: EvidenceItem[] = [];
  const scores: Record<string, number> = {};
  for (const m of memories) {
    const time = m.createdAt ?? '';
    const source: SourceRef = {
      source_id: m.id,
      lineage_id: m.id,
      origin_type: 'extract',
      origin_locator: `mem0:memory:${m.id}`,
      snapshot_id: m.id,
      content_hash: m.hash ?? `mem0:${m.id}`,
      observed_at: time,
      extractor_id: 'mem0.extract',
      parent_source_id: null,
    };
    assertions.push({
      assertion_id: `${m.id}:a`,
      proposition_id: propositionId,
      text: m.text,
      asserted_by: 'mem0.extract',
      assertion_confidence: 0.5,
      source,
      asserted_at: time,
    });
    evidence.push({ evidence_id: `${m.id}:e`, proposition_id: propositionId, polarity: 'supports', source, content: m.text, observed_at: time });
    if (m.score !== undefined) scores[m.id] = m.score;
  }
  return decodeView({
    proposition_id: propositionId,
    assertions,
    evidence,
    retrieval_scope: 'mem0.unverified',
    adapter_meta: {
      [META_NAMESPACE]: { store: 'mem0', client, native: true, store_notes: storeNotes(memories), retrieval_scores: scores },
    },
  });
}
