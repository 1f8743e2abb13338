/**
 * Rationale codes (emitted by @ewp/core's warrantNow, docs/spec/protocol.md §7.5) in plain words,
 * with the records of the view that caused them. Words only: the decision stays with the kernel.
 */
import { ENDOGENOUS_ORIGINS, type EvidenceView, type WarrantView } from '@ewp/core';
import { durationWords, secondsOf } from './time.js';

/** What each code means, in a sentence. */
export const RATIONALE_MEANINGS: Readonly<Record<string, string>> = {
  'availability.future_assertion': 'Some assertions are not available at T (dated later, or with no usable date), so they are ignored.',
  'availability.future_evidence': 'Some evidence is not available at T (dated later, or with no usable date), so it is ignored.',
  'conflict.open': 'A recorded conflict is open.',
  'conflict.implied_polarity': 'The available records both support and oppose the proposition: an open conflict even though none is recorded.',
  'conflict.resolved': 'Every recorded conflict is resolved.',
  'verification.laundered_endogenous': `A check from an endogenous origin (${[...ENDOGENOUS_ORIGINS].join(', ')}) uses an external method; it cannot lift verification.`,
  'verification.not_available_at_t': 'Some checks are not available at T (dated later, or with no usable date) and count for nothing.',
  'verification.none': 'No available check verifies the proposition.',
  'verification.indirect': 'The best available check is indirect (inference, extraction, an untrusted origin, unbound subjects or an inconclusive result).',
  'verification.external': 'The best available check used an external method, came from a trusted origin and binds to the subjects (whatever its result).',
  'verification.human': 'The best available check is a human attestation or review from a trusted origin, bound to the subjects (whatever its result).',
  'verification.inconclusive_present': 'A check came back inconclusive.',
  'verification.opposing_check': 'A check opposes the proposition.',
  'currency.stale_check': 'The newest check of the best verification class is older than the freshness window at T.',
  'currency.superseded': 'A superseded_by edge names this proposition: it has been superseded.',
  'sufficiency.degraded': 'Retrieval was incomplete (degraded, omitted sources, or a partial scope): something may be missing.',
  'sufficiency.none': 'Nothing about the proposition is available at T.',
  'acceptance.accepted': 'Asserted or supported, externally or humanly verified, current, complete, with no open conflict and no strong opposing check.',
  'acceptance.tentative': 'Asserted or supported, but not everything acceptance ACCEPTED needs holds (see the other reasons).',
  'acceptance.none': 'Nothing available asserts or supports the proposition.',
};

/** The axis a code explains (`availability` codes belong to none). */
export function axisOfCode(code: string): string {
  return code.slice(0, code.indexOf('.'));
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? 'none' : ids.join(', ');
}

/** The code's meaning plus the records of this view behind it. */
export function explainCode(code: string, w: WarrantView, view: EvidenceView, at: string): string {
  const meaning = RATIONALE_MEANINGS[code] ?? `Code ${code} (no explanation known to this page).`;
  const t = secondsOf(at);
  switch (code) {
    case 'conflict.open':
      return `${meaning} Open: ${list(w.open_conflicts)}.`;
    case 'conflict.resolved':
      return `${meaning} Resolved: ${list(w.resolved_conflicts)}.`;
    case 'conflict.implied_polarity':
      return `${meaning} Supporting evidence: ${list(w.supporting_evidence_ids)}; opposing evidence: ${list(w.opposing_evidence_ids)}; checks: ${list(view.checks.filter((c) => c.result !== 'inconclusive').map((c) => `${c.check_id} ${c.result}`))}.`;
    case 'verification.opposing_check':
      return `${meaning} Opposing: ${list(view.checks.filter((c) => c.result === 'opposes').map((c) => c.check_id))}.`;
    case 'verification.laundered_endogenous':
      return `${meaning} Checks: ${list(view.checks.filter((c) => ENDOGENOUS_ORIGINS.has(c.source.origin_type)).map((c) => `${c.check_id} (${c.source.origin_type}, ${c.method})`))}.`;
    case 'currency.stale_check': {
      const check = view.checks.find((c) => c.check_id === w.freshest_check);
      const s = check === undefined ? undefined : secondsOf(check.observed_at);
      const age = s === undefined || t === undefined ? '' : `, ${durationWords(t - s)} before T`;
      return `${meaning} Newest: ${w.freshest_check ?? '?'}${check ? ` observed ${check.observed_at}${age}` : ''}; window ${durationWords(view.freshness_policy_seconds)}.`;
    }
    case 'currency.superseded':
      return `${meaning} Superseded by ${list(w.superseded_by)}.`;
    case 'sufficiency.degraded':
      return `${meaning} ${degradedCauses(view).join('; ')}.`;
    default:
      return meaning;
  }
}

/** The view's retrieval fields that make it DEGRADED, as facts. */
export function degradedCauses(view: EvidenceView): string[] {
  const causes: string[] = [];
  if (view.degraded) causes.push('the adapter marked the retrieval degraded');
  if (view.omitted_sources.length > 0) causes.push(`omitted sources: ${view.omitted_sources.join(', ')}`);
  if (view.retrieval_scope !== 'complete') causes.push(`retrieval scope is "${view.retrieval_scope}", not "complete"`);
  return causes;
}
