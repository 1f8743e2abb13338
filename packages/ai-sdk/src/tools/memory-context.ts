/**
 * The warnings of `ewp_memory_context` (STORES.md §5), in the contract's order: what the agent
 * must say out loud instead of smoothing over.
 */
import { classifyCheck, compareInstants, type EvidenceView, lowerSubjects, parseEvaluatedAt, parseInstant, type WarrantView } from '@ewp/core';

/** Classes (EXTERNAL/HUMAN) of the opposing checks available at the warrant's T. */
function strongOpposingClasses(view: EvidenceView, warrant: WarrantView): string[] {
  const t = parseEvaluatedAt(warrant.evaluated_at);
  const subjects = lowerSubjects(view.subjects);
  const classes = new Set<string>();
  for (const check of view.checks) {
    if (check.result !== 'opposes') continue;
    const at = parseInstant(check.observed_at);
    if (typeof at === 'string' || compareInstants(at, t) > 0) continue;
    const cls = classifyCheck(check, subjects);
    if (cls === 'EXTERNAL' || cls === 'HUMAN') classes.add(cls);
  }
  return [...classes].sort();
}

export function memoryWarnings(view: EvidenceView, warrant: WarrantView): string[] {
  const w = warrant.warrant;
  const out: string[] = [];
  if (w.conflict === 'OPEN') out.push('conflict OPEN: the evidence disagrees; say so and do not invent a reconciliation');
  if (w.sufficiency === 'DEGRADED') out.push('sufficiency DEGRADED: the view is incomplete; something relevant may be missing');
  if (w.currency === 'STALE') out.push('currency STALE: the verifying check is older than the freshness policy allows');
  if (w.currency === 'SUPERSEDED') out.push('currency SUPERSEDED: a newer proposition replaces this one');
  const opposing = strongOpposingClasses(view, warrant);
  if (opposing.length > 0) {
    out.push(`an opposing ${opposing.join('/')} check exists: the verification axis is the strongest check, not a confirmation`);
  }
  if (w.acceptance !== 'ACCEPTED') out.push(`acceptance ${w.acceptance}: do not state this proposition as established fact`);
  return out;
}
