import { type Assertion, decodeView, type EvidenceItem, type EvidenceView, type SourceRef, type StoreNote } from '@ewp/core';

/** The `adapter_meta` key the Zep adapter writes its read annotations under. */
export const META_NAMESPACE = '@ewp/zep';

/** A Zep entity edge (fact), as the client returns it (camelCase). */
export interface ZepFact {
  uuid: string;
  fact: string;
  name: string;
  createdAt: string;
  validAt?: string;
  invalidAt?: string;
  expiredAt?: string;
  episodes?: string[];
  score?: number;
}

/** Zep's own temporal judgements about `facts` (never a supersession), as store notes. */
function factNotes(facts: ZepFact[]): StoreNote[] {
  const notes: StoreNote[] = [];
  for (const f of facts) {
    if (f.invalidAt) notes.push({ id: f.uuid, note: `zep invalid_at ${f.invalidAt}` });
    if (f.expiredAt) notes.push({ id: f.uuid, note: `zep expired_at ${f.expiredAt}` });
  }
  return notes;
}

/**
 * Maps Zep's own facts (entity edges from its extraction) to a view of P: one assertion and one
 * supporting evidence item per fact, from an `extract` source (endogenous: never verifies), each
 * its own lineage (its first episode, else the edge). `valid_at`, `invalid_at` and `expired_at`
 * stay store-local notes in adapter_meta: they never supersede, verify or expire anything.
 * The scope `zep.facts` makes the view DEGRADED.
 */
export function factsView(propositionId: string, facts: ZepFact[], scope = 'zep.facts'): EvidenceView {
  const assertions: Assertion[] = [];
  const evidence: EvidenceItem[] = [];
  const temporal: Record<string, { valid_at: string | null; invalid_at: string | null; expired_at: string | null; name: string }> = {};
  const scores: Record<string, number> = {};
  for (const f of facts) {
    const id = `zep:edge:${f.uuid}`;
    const source: SourceRef = {
      source_id: id,
      lineage_id: f.episodes?.[0] ? `zep:episode:${f.episodes[0]}` : id,
      origin_type: 'extract',
      origin_locator: id,
      snapshot_id: f.uuid,
      content_hash: `zep:${f.uuid}`,
      observed_at: f.createdAt,
      extractor_id: 'zep.graphiti',
      parent_source_id: f.episodes?.[0] ? `zep:episode:${f.episodes[0]}` : null,
    };
    assertions.push({
      assertion_id: `${id}:a`,
      proposition_id: propositionId,
      text: f.fact,
      asserted_by: 'zep.extract',
      assertion_confidence: 0.5,
      source,
      asserted_at: f.createdAt,
    });
    evidence.push({ evidence_id: `${id}:e`, proposition_id: propositionId, polarity: 'supports', source, content: f.fact, observed_at: f.createdAt });
    temporal[f.uuid] = { valid_at: f.validAt ?? null, invalid_at: f.invalidAt ?? null, expired_at: f.expiredAt ?? null, name: f.name };
    if (f.score !== undefined) scores[f.uuid] = f.score;
  }
  return decodeView({
    proposition_id: propositionId,
    assertions,
    evidence,
    retrieval_scope: scope,
    adapter_meta: { [META_NAMESPACE]: { store: 'zep', native: true, facts: temporal, store_notes: factNotes(facts), retrieval_scores: scores } },
  });
}
