/**
 * Echo detection at link time. A new support (or refutation) is compared with the target's own text
 * and its earlier records of the same polarity, but only those from the same source (an echo needs the
 * same source) and at most `4 × search_k` of the most recent of them; the `search_k` nearest are kept
 * for the audit. At or above `sim_threshold`, it is a self-echo: it joins the lineage of what it echoes,
 * so it adds no distinct source and no independent lineage. The cost is bounded by `search_k`, never by
 * the number of memories or supports.
 */
import type { EvidenceView } from '@ewp/core';
import type { MemoryConfig } from './config.js';
import { type EchoCandidate, tenThousandths } from './memory-events.js';
import { type MemoryFacts, sourceLineage } from './memory-records.js';
import type { SimilarityMeasure } from './similarity.js';

/** The outcome of the echo check. */
export interface EchoDecision {
  echo: boolean;
  /** The echoed record's id, for an echo. */
  echo_of: string | null;
  /** The lineage the new record joins: the echoed record's, or the support's own source lineage. */
  lineage_id: string;
  /** The nearest compared records, most similar first (at most `search_k`). */
  nearest: EchoCandidate[];
}

interface Candidate {
  record: string;
  text: string;
  lineage: string;
}

/** Same-source records of `target` a new record of `polarity` is compared with, most recent first, bounded. */
function candidatesOf(target: EvidenceView, source: string, polarity: 'supports' | 'opposes', bound: number): Candidate[] {
  const out: Candidate[] = [];
  for (let i = target.evidence.length - 1; i >= 0 && out.length < bound; i -= 1) {
    const e = target.evidence[i]!;
    if (e.polarity === polarity && e.source.origin_locator === source) out.push({ record: e.evidence_id, text: e.content, lineage: e.source.lineage_id });
  }
  if (polarity === 'supports') {
    // The claim itself is the first thing a paraphrase would echo.
    for (const a of target.assertions) {
      if (a.source.origin_locator === source) out.push({ record: a.assertion_id, text: a.text, lineage: a.source.lineage_id });
    }
  }
  return out;
}

/** Decide whether `support` echoes something already in `target` (its current view). */
export async function checkEcho(
  target: EvidenceView,
  support: MemoryFacts,
  polarity: 'supports' | 'opposes',
  measure: SimilarityMeasure,
  config: Pick<MemoryConfig, 'search_k' | 'sim_threshold'>,
): Promise<EchoDecision> {
  const own = sourceLineage(support.source);
  const candidates = candidatesOf(target, support.source, polarity, 4 * config.search_k);
  if (candidates.length === 0) return { echo: false, echo_of: null, lineage_id: own, nearest: [] };
  const scores = await measure.similarities(
    support.text,
    candidates.map((c) => c.text),
  );
  const ranked = candidates.map((c, i) => ({ c, s: scores[i] ?? 0 })).sort((a, b) => b.s - a.s || (a.c.record < b.c.record ? -1 : 1));
  const nearest = ranked.slice(0, config.search_k);
  const best = nearest[0]!;
  const echo = best.s >= config.sim_threshold;
  return {
    echo,
    echo_of: echo ? best.c.record : null,
    lineage_id: echo ? best.c.lineage : own,
    nearest: nearest.map((n) => ({ record: n.c.record, similarity: tenThousandths(n.s) })),
  };
}
