/**
 * A memory's counts and confidence at T, from its view's records (docs/spec/evidence-layer.md): which
 * records count (not those of a memory now a claim, not the memory's own source or lineage), the
 * counts reused while T stays at or after the latest record, and the state with its warrant beside.
 */
import {
  compareInstants,
  type EvidenceItem,
  type EvidenceView,
  type Instant,
  parseInstant,
  pieceContains,
  REFERENCE_V2,
  type Warrant,
  type WarrantPiece,
  type WarrantView,
  warrantNow,
  warrantWithHorizon,
} from '@ewp/core';
import { confidenceOf } from './confidence.js';
import type { EpistemicClass } from './epistemic-class.js';
import { type EvidenceCounts, evidenceCounts } from './evidence-counts.js';
import type { CachedView, Indexed } from './memory-index.js';
import type { At, MemoryLayer } from './memory-layer.js';
import { hashOfProposition, isSelfSupport, type OwnLineage, ownLineageOf } from './memory-records.js';

/** The state of one memory at T: class and confidence with the counts behind it, and its warrant beside them. */
export interface MemoryState extends EvidenceCounts {
  hash: string;
  proposition_id: string;
  view_id: string;
  text: string;
  class: EpistemicClass;
  project: string | null;
  source: string;
  confidence: number;
  /** The EWP warrant of the memory's view at T, shown beside confidence; neither feeds the other. */
  warrant: Omit<Warrant, 'strength' | 'rationale_codes'>;
  /** The warrant's count of distinct lineages (an echo joins the lineage it echoes, so it adds none). */
  independent_lineage_count: number;
  evaluated_at: string;
}

/** The own lineage of an indexed memory (its STORE facts never change, so it is computed once). */
export function ownOf(layer: MemoryLayer, m: Indexed): OwnLineage {
  m.own ??= ownLineageOf(m.facts.hash, (h) => layer.index.get(h)?.facts);
  return m.own;
}

/** The self-support test for the records of a memory's view (none for a view that is no indexed memory). */
function selfTest(layer: MemoryLayer, view: EvidenceView): ((record: EvidenceItem) => boolean) | undefined {
  const hash = hashOfProposition(view.proposition_id);
  const m = hash === undefined ? undefined : layer.index.get(hash);
  if (m === undefined || hash === undefined) return undefined;
  const own = ownOf(layer, m);
  return (record) => isSelfSupport(hash, own, record);
}

/** The latest parsable assertion or observation time of a view: at or after it, every record is available. */
function latestRecordTime(view: EvidenceView): Instant | undefined {
  let latest: Instant | undefined;
  const consider = (time: string) => {
    const t = parseInstant(time);
    if (typeof t !== 'string' && (latest === undefined || compareInstants(t, latest) > 0)) latest = t;
  };
  for (const a of view.assertions) consider(a.asserted_at);
  for (const e of view.evidence) consider(e.observed_at);
  return latest;
}

/**
 * The counts of a cached view at T: computed once with every record available, and reused for any T
 * at or after its latest record time (an earlier T is computed afresh). Dropped with the view, so a
 * link, a reclass or another writer's commit is never missed.
 */
export function countsOf(layer: MemoryLayer, cached: CachedView, at: Instant): EvidenceCounts {
  if (cached.settled === undefined) {
    const from = latestRecordTime(cached.view);
    cached.settled = {
      counts: evidenceCounts(cached.view, from ?? at, layer.qualifies, selfTest(layer, cached.view)),
      from,
    };
    if (from === undefined) return cached.settled.counts;
  }
  const { counts, from } = cached.settled;
  return from === undefined || compareInstants(at, from) >= 0 ? counts : evidenceCounts(cached.view, at, layer.qualifies, selfTest(layer, cached.view));
}

/** The confidence of a cached view at T. */
export function confidenceAt(layer: MemoryLayer, cached: CachedView, at: Instant): number {
  return confidenceOf(countsOf(layer, cached, at), layer.config.confidence, at);
}

/**
 * The warrant of a cached view at T, from its kept piece while T is inside it (its `evaluated_at` is then
 * the T the piece was computed at: callers here take T from `at`); else computed and kept.
 */
function warrantOf(cached: CachedView, at: At): WarrantView {
  return warrantPieceOf(cached, at, true).warrant;
}

/**
 * The warrant piece of a cached view holding T: the kept one while T is inside it, else computed (and
 * kept when `keep`). Its `evaluated_at` is the T it was computed at.
 */
export function warrantPieceOf(cached: CachedView, at: At, keep: boolean): WarrantPiece {
  const kept = cached.piece;
  if (kept !== undefined && pieceContains(kept, at.instant)) return kept;
  const piece = warrantWithHorizon(cached.view, REFERENCE_V2, at.text);
  if (keep) cached.piece = piece;
  return piece;
}

/** The state of memory `hash` at T (its view kept in the cache unless `keep` is false). */
export async function stateOf(layer: MemoryLayer, hash: string, at: At, keep = true): Promise<MemoryState> {
  const m = layer.index.known(hash, 'hash');
  const cached = await layer.index.cached(hash, keep);
  const view = cached.view;
  const counts = countsOf(layer, cached, at.instant);
  // A view kept in the cache keeps its warrant piece; one read for a single pass is evaluated once.
  const w = layer.index.isCached(hash, cached) ? warrantOf(cached, at) : warrantNow(view, REFERENCE_V2, at.text);
  const { strength: _s, rationale_codes: _r, ...warrant } = w.warrant;
  return {
    hash,
    proposition_id: view.proposition_id,
    view_id: view.view_id,
    text: m.facts.text,
    class: m.current,
    project: m.facts.project,
    source: m.facts.source,
    ...counts,
    confidence: confidenceOf(counts, layer.config.confidence, at.instant),
    warrant,
    independent_lineage_count: w.independent_lineage_count,
    evaluated_at: at.text,
  };
}

/** Confirmed: the warrant accepts it, or its confidence reaches `confirmed_confidence` (either suffices; neither feeds the other). */
export function isConfirmed(layer: MemoryLayer, s: MemoryState): boolean {
  return s.warrant.acceptance === 'ACCEPTED' || s.confidence >= layer.config.confirmed_confidence;
}

/**
 * Disputed: something refutes the memory, or its warrant shows an open conflict. The one rule, for
 * every state a context, a recall or a persona file shows.
 */
export function isDisputedMemory(state: Pick<MemoryState, 'refute_count' | 'warrant'>): boolean {
  return state.refute_count > 0 || state.warrant.conflict === 'OPEN';
}
