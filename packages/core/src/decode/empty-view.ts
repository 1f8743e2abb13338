import { DEFAULT_FRESHNESS_SECONDS, type EvidenceView } from '@ewp/spec';

/**
 * A view of `propositionId` with no records and every default the decoder applies (complete scope,
 * not degraded, the default freshness window): the start of a snapshot built record by record.
 * `view_id` is empty; derive it with `deriveViewId` once the records are in.
 */
export function emptyView(propositionId: string): EvidenceView {
  return {
    proposition_id: propositionId,
    view_id: '',
    assertions: [],
    evidence: [],
    lineage: [],
    conflicts: [],
    checks: [],
    omitted_sources: [],
    retrieval_scope: 'complete',
    degraded: false,
    freshness_policy_seconds: DEFAULT_FRESHNESS_SECONDS,
    adapter_meta: {},
    subjects: [],
  };
}
