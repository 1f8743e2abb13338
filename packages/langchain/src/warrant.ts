/**
 * The warrant a read returns, camelCase: what the retriever puts on each document and the store on each
 * item. The protocol's `WarrantView` (snake_case) stays what is evaluated and recorded; this is the one
 * conversion of it for JavaScript callers.
 */
import type { Warrant as Axes, WarrantView } from '@ewp/core';

/** A proposition's warrant at the time of a read. */
export interface Warrant {
  propositionId: string;
  /** The evaluated snapshot (`…#search` / `…#topk` when a limit cut the result, `…#unrecorded` for a write around the wrapper). */
  viewId: string;
  /** T of the evaluation (ISO 8601). */
  evaluatedAt: string;
  acceptance: Axes['acceptance'];
  conflict: Axes['conflict'];
  verification: Axes['verification'];
  currency: Axes['currency'];
  sufficiency: Axes['sufficiency'];
  /** Independent lineages among the supporting records. */
  independentLineageCount: number;
  /** Ids of the open conflicts. */
  openConflicts: string[];
  /** The propositions this one is derived from (a summary's sources). */
  derivedFrom: string[];
  /** The propositions that superseded this one. */
  supersededBy: string[];
  /** True when a limit cut the result the warrant was read in (it was evaluated DEGRADED). */
  cut: boolean;
  /** True when nothing recorded backs what was read (written around the wrapper, or no evidence): an unrecorded claim. */
  unrecorded: boolean;
}

/** The camelCase warrant of a protocol `WarrantView`. */
export function warrantOf(w: WarrantView, read: { cut: boolean; unrecorded: boolean }): Warrant {
  return {
    propositionId: w.proposition_id,
    viewId: w.view_id,
    evaluatedAt: w.evaluated_at,
    acceptance: w.warrant.acceptance,
    conflict: w.warrant.conflict,
    verification: w.warrant.verification,
    currency: w.warrant.currency,
    sufficiency: w.warrant.sufficiency,
    independentLineageCount: w.independent_lineage_count,
    openConflicts: [...w.open_conflicts],
    derivedFrom: [...w.derived_from],
    supersededBy: [...w.superseded_by],
    cut: read.cut,
    unrecorded: read.unrecorded,
  };
}
