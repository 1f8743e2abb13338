import type { Verification, VerificationCheck } from '@ewp/spec';
import { EXTERNAL_METHODS, HUMAN_METHODS, INDIRECT_METHODS, TRUSTED_ORIGINS } from './policy-tables.js';
import { pythonLower } from './python-lower.js';

/** Subject ids lowercased as Python does, as a set (docs/spec/protocol.md §6.3). */
export function lowerSubjects(subjects: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const s of subjects) out.add(pythonLower(s));
  return out;
}

/** A check binds when both subject sets are empty or they share an element (docs/spec/protocol.md §6.3). */
export function bindsToView(checkSubjects: readonly string[], viewSubjects: ReadonlySet<string>): boolean {
  if (checkSubjects.length === 0) return viewSubjects.size === 0;
  if (viewSubjects.size === 0) return false;
  for (const s of checkSubjects) if (viewSubjects.has(pythonLower(s))) return true;
  return false;
}

/**
 * The class of an AVAILABLE check (docs/spec/protocol.md §6.2 steps 2–4); an unavailable check is `NONE`
 * and is handled by the caller.
 */
export function classifyCheck(check: VerificationCheck, viewSubjects: ReadonlySet<string>): Verification {
  const trusted = TRUSTED_ORIGINS.has(check.source.origin_type);
  let cls: Verification;
  if (HUMAN_METHODS.has(check.method)) cls = trusted ? 'HUMAN' : 'INDIRECT';
  else if (EXTERNAL_METHODS.has(check.method)) cls = trusted ? 'EXTERNAL' : 'INDIRECT';
  else if (INDIRECT_METHODS.has(check.method)) return 'INDIRECT';
  else return 'NONE';
  if (cls === 'INDIRECT') return cls;
  if (!bindsToView(check.subjects, viewSubjects) || check.result === 'inconclusive') return 'INDIRECT';
  return cls;
}
