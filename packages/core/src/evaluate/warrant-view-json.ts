import { HIGH_UNIT, sortedByCodeUnit, sortedByCodePoint } from '../decode/codepoint-order.js';
import { jsonString, MAY_ESCAPE } from '../json/json-string.js';
import type { WarrantView } from '@ewp/spec';

/**
 * The JSON text of the normalized WarrantView (docs/spec/protocol.md §7.2), fields in the order
 * {@link warrantNow} builds them: `JSON.stringify(normalizeWarrantView(w))` for its results, written
 * field by field without the normalized copy (it is most of `ewp eval --jsonl`'s output).
 */
export function normalizedWarrantViewJson(w: WarrantView): string {
  const a = w.warrant;
  return (
    `{"protocol_version":${jsonString(w.protocol_version)},"proposition_id":${jsonString(w.proposition_id)},` +
    `"view_id":${jsonString(w.view_id)},"policy_id":${jsonString(w.policy_id)},"policy_version":${jsonString(w.policy_version)},` +
    `"evaluated_at":${jsonString(w.evaluated_at)},"warrant":{"acceptance":${jsonString(a.acceptance)},` +
    `"conflict":${jsonString(a.conflict)},"verification":${jsonString(a.verification)},"currency":${jsonString(a.currency)},` +
    `"sufficiency":${jsonString(a.sufficiency)},"strength":${numberJson(a.strength)},"rationale_codes":${sortedList(a.rationale_codes)}},` +
    `"supporting_evidence_ids":${sortedList(w.supporting_evidence_ids)},"opposing_evidence_ids":${sortedList(w.opposing_evidence_ids)},` +
    `"independent_lineage_count":${numberJson(w.independent_lineage_count)},"checks":${sortedList(w.checks)},` +
    `"freshest_check":${w.freshest_check === null ? 'null' : jsonString(w.freshest_check)},"stale":${w.stale ? 'true' : 'false'},` +
    `"open_conflicts":${sortedList(w.open_conflicts)},"resolved_conflicts":${sortedList(w.resolved_conflicts)},` +
    `"omitted_sources":${sortedList(w.omitted_sources)},"derived_from":${sortedList(w.derived_from)},` +
    `"supersedes":${sortedList(w.supersedes)},"superseded_by":${sortedList(w.superseded_by)},` +
    `"falsification_conditions":${list(w.falsification_conditions)}}`
  );
}

/** JSON.stringify of a number. */
function numberJson(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** What needs care in an id: JSON.stringify may escape it, or it orders differently by code unit and by code point. */
const NEEDS_CARE = new RegExp(`${MAY_ESCAPE.source}|${HIGH_UNIT.source}`);

/**
 * A list's JSON in code point order. Ids with nothing that needs care (the usual case) are sorted by
 * code unit (the same order for them) and written between quotes as they are; any other list takes
 * {@link sortedByCodePoint} and {@link jsonString}.
 */
function sortedList(items: readonly string[]): string {
  const n = items.length;
  if (n === 0) return '[]';
  for (let i = 0; i < n; i++) if (NEEDS_CARE.test(items[i] as string)) return list(sortedByCodePoint(items));
  return n === 1 ? `["${items[0]}"]` : `["${sortedByCodeUnit(items).join('","')}"]`;
}

function list(items: readonly string[]): string {
  if (items.length === 0) return '[]';
  let out = `[${jsonString(items[0] as string)}`;
  for (let i = 1; i < items.length; i++) out += `,${jsonString(items[i] as string)}`;
  return `${out}]`;
}
