/**
 * What a memory's evidence amounts to at an instant T, read from the records of its EWP view (never
 * kept as a separate truth): supports, refutations, distinct independent sources, first and last
 * seen. An echo (a supporting or opposing record with a `derived_from` edge to what it echoes) counts
 * for nothing; neither does a self-support (a record the caller's `isSelf` names: for the memory layer, one
 * from the memory's own source or lineage or that of anything it was derived from), whatever its wording;
 * a record not yet observed at T does not count either.
 */
import { compareInstants, type EvidenceItem, type EvidenceView, type Instant, parseInstant } from '@ewp/core';

/** The evidence counts of one memory at T. */
export interface EvidenceCounts {
  /** Supporting records that are neither echoes nor self-supports (an observation's own record counts). */
  support_count: number;
  /**
   * Opposing records that are not echoes. A self-refutation counts here: it can only lower confidence
   * and mark the memory disputed, never raise either.
   */
  refute_count: number;
  /** Distinct lineages among the counted supports: each lineage is one independent source. */
  distinct_sources: number;
  /** Records that were found to echo an earlier text of the same source. */
  echo_count: number;
  /** Supports (not echoes) from the memory's own source or lineage: never independent, so they count for nothing. */
  self_support_count: number;
  /** Earliest assertion or observation time available at T. */
  first_seen: string | null;
  last_support: string | null;
  last_refute: string | null;
}

/** Whether `time` names an instant at or before `at` (an unparsable time is never available). */
function availableAt(time: string, at: Instant): Instant | undefined {
  const parsed = parseInstant(time);
  if (typeof parsed === 'string') return undefined;
  return compareInstants(parsed, at) <= 0 ? parsed : undefined;
}

/** The later of two (time, instant) pairs. */
function later(a: { text: string; at: Instant } | undefined, text: string, at: Instant): { text: string; at: Instant } {
  return a === undefined || compareInstants(at, a.at) > 0 ? { text, at } : a;
}

/** The ids of the view's evidence records that echo another record (the source of a `derived_from` edge). */
export function echoRecordIds(view: EvidenceView): Set<string> {
  const evidenceIds = new Set(view.evidence.map((e) => e.evidence_id));
  const echoes = new Set<string>();
  for (const edge of view.lineage) if (edge.kind === 'derived_from' && evidenceIds.has(edge.from_id)) echoes.add(edge.from_id);
  return echoes;
}

/**
 * The counts of `view` at the instant `at`. `qualifies` may disqualify records by id (the memory layer
 * drops the records of a memory reclassified as an inference or hypothesis: those may support nothing).
 * `isSelf` names the supporting records that are the view's own source speaking again (not independent):
 * they are counted apart, in `self_support_count`, and raise neither `support_count` nor `distinct_sources`.
 */
export function evidenceCounts(
  view: EvidenceView,
  at: Instant,
  qualifies?: (recordId: string) => boolean,
  isSelf?: (record: EvidenceItem) => boolean,
): EvidenceCounts {
  const echoes = echoRecordIds(view);
  const lineages = new Set<string>();
  let support = 0;
  let refute = 0;
  let echo = 0;
  let self = 0;
  let first: { text: string; at: Instant } | undefined;
  let lastSupport: { text: string; at: Instant } | undefined;
  let lastRefute: { text: string; at: Instant } | undefined;
  for (const a of view.assertions) {
    const t = availableAt(a.asserted_at, at);
    if (t !== undefined && (first === undefined || compareInstants(t, first.at) < 0)) first = { text: a.asserted_at, at: t };
  }
  for (const e of view.evidence) {
    const t = availableAt(e.observed_at, at);
    if (t === undefined || (qualifies !== undefined && !qualifies(e.evidence_id))) continue;
    if (first === undefined || compareInstants(t, first.at) < 0) first = { text: e.observed_at, at: t };
    if (echoes.has(e.evidence_id)) {
      echo += 1;
    } else if (e.polarity === 'supports' && isSelf?.(e) === true) {
      self += 1;
    } else if (e.polarity === 'supports') {
      support += 1;
      lineages.add(e.source.lineage_id);
      lastSupport = later(lastSupport, e.observed_at, t);
    } else {
      refute += 1;
      lastRefute = later(lastRefute, e.observed_at, t);
    }
  }
  return {
    support_count: support,
    refute_count: refute,
    distinct_sources: lineages.size,
    echo_count: echo,
    self_support_count: self,
    first_seen: first?.text ?? null,
    last_support: lastSupport?.text ?? null,
    last_refute: lastRefute?.text ?? null,
  };
}
