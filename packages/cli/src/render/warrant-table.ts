import type { WarrantView } from '@ewp/core';

function list(ids: readonly string[]): string {
  return ids.length === 0 ? '-' : ids.join(', ');
}

/** A WarrantView as a short, readable block: identity, the five axes, and the reasons. */
export function renderWarrantTable(w: WarrantView): string {
  const a = w.warrant;
  const rows: [string, string][] = [
    ['acceptance', a.acceptance],
    ['conflict', a.conflict + (w.open_conflicts.length ? `  (open: ${list(w.open_conflicts)})` : '')],
    ['verification', a.verification + (w.freshest_check ? `  (freshest check: ${w.freshest_check})` : '')],
    ['currency', a.currency + (w.superseded_by.length ? `  (superseded by: ${list(w.superseded_by)})` : '')],
    ['sufficiency', a.sufficiency + (w.omitted_sources.length ? `  (omitted: ${list(w.omitted_sources)})` : '')],
  ];
  return [
    `${w.proposition_id}  view=${w.view_id}  at ${w.evaluated_at}  (${w.protocol_version}, ${w.policy_id})`,
    ...rows.map(([k, v]) => `  ${k.padEnd(13)} ${v}`),
    `  ${'reasons'.padEnd(13)} ${a.rationale_codes.join(', ')}`,
    `  ${'lineages'.padEnd(13)} ${w.independent_lineage_count}   supporting: ${list(w.supporting_evidence_ids)}   opposing: ${list(w.opposing_evidence_ids)}   strength: ${a.strength.toFixed(2)} (non-normative)`,
    '',
  ].join('\n');
}
