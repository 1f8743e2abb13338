import { sortedByCodePoint } from '../decode/codepoint-order.js';
import type { WarrantView } from '@ewp/spec';

/**
 * The normalized WarrantView (docs/spec/protocol.md §7.2): the goldens' form, with every id list and the
 * rationale codes sorted in code point order (duplicates kept). Returns a new object.
 */
export function normalizeWarrantView(w: WarrantView): WarrantView {
  return {
    ...w,
    warrant: { ...w.warrant, rationale_codes: sortedByCodePoint(w.warrant.rationale_codes) },
    supporting_evidence_ids: sortedByCodePoint(w.supporting_evidence_ids),
    opposing_evidence_ids: sortedByCodePoint(w.opposing_evidence_ids),
    checks: sortedByCodePoint(w.checks),
    open_conflicts: sortedByCodePoint(w.open_conflicts),
    resolved_conflicts: sortedByCodePoint(w.resolved_conflicts),
    omitted_sources: sortedByCodePoint(w.omitted_sources),
    derived_from: sortedByCodePoint(w.derived_from),
    supersedes: sortedByCodePoint(w.supersedes),
    superseded_by: sortedByCodePoint(w.superseded_by),
    falsification_conditions: w.falsification_conditions.slice(),
  };
}

/** The normative part only (docs/spec/protocol.md §7.1): what two conforming implementations must agree on. */
export function normativeWarrant(w: WarrantView): Pick<
  WarrantView,
  'protocol_version' | 'proposition_id' | 'view_id' | 'policy_id' | 'policy_version' | 'evaluated_at'
> & {
  warrant: Pick<WarrantView['warrant'], 'acceptance' | 'conflict' | 'verification' | 'currency' | 'sufficiency'>;
} {
  const { acceptance, conflict, verification, currency, sufficiency } = w.warrant;
  return {
    protocol_version: w.protocol_version,
    proposition_id: w.proposition_id,
    view_id: w.view_id,
    policy_id: w.policy_id,
    policy_version: w.policy_version,
    evaluated_at: w.evaluated_at,
    warrant: { acceptance, conflict, verification, currency, sufficiency },
  };
}
