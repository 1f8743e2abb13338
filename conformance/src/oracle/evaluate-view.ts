/**
 * The reference-v2 judgment (docs/spec/protocol.md §6, §7) over a decoded oracle view. Written as one pass that
 * first resolves every record time, then derives the axes, diagnostics, strength and codes.
 */
import { sortedByCodePoint } from './code-point-order.js';
import { readInstant } from './instant.js';
import { pythonLower } from './python-lower.js';
import type { OCheck, OView } from './view-model.js';

const HUMAN_METHODS = new Set(['human_attestation', 'human_review']);
const EXTERNAL_METHODS = new Set([
  'tool_observation',
  'external_clock',
  'document_quote',
  'independent_reproduction',
  'vendor_documentation',
  'winrm',
  'external_api',
]);
const INDIRECT_METHODS = new Set(['inference', 'extract', 'derived', 'model_introspection']);
const TRUSTED = new Set(['tool', 'document', 'human', 'api', 'vendor', 'sensor']);
const ENDOGENOUS = new Set(['extract', 'turn', 'derived', 'summary', 'model_introspection']);

/** Class ranks: NONE 0 < INDIRECT 1 < EXTERNAL 2 < HUMAN 3. */
const CLASS_NAMES = ['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN'] as const;

/** Plain-JSON normalized WarrantView, as the reference harness prints it. */
export type OracleWarrantView = Record<string, unknown>;

/** Evaluation failure: `OverflowError` when a record time is out of range (docs/spec/protocol.md §5.4). */
export class RecordTimeOutOfRange extends Error {
  constructor(readonly value: string) {
    super(`date value out of range: ${JSON.stringify(value)}`);
  }
}

function names(x: string, P: string): boolean {
  return x === P || x.startsWith(`${P}:`);
}

/** Available instant (µs) or null; throws on out-of-range (every non-empty time is parsed). */
function availability(time: string, T: bigint): bigint | null {
  const r = readInstant(time);
  if (r === 'out_of_range') throw new RecordTimeOutOfRange(time);
  if (r === 'unparsable') return null;
  return r.us <= T ? r.us : null;
}

/** docs/spec/protocol.md §5.7: double(a / 10^6) > F, exactly, by comparing against the rounding midpoint. */
function isStale(ageUs: bigint, F: bigint): boolean {
  const d = ageUs - F * 1_000_000n;
  if (d <= 0n) return false;
  if (F === 0n) return true;
  const E = F.toString(2).length - 1; // floor(log2 F), 0 … 52
  // ulp(F) = 2^(E−52); stale iff d/10^6 > ulp/2, i.e. d·2^(53−E) > 10^6 (ties to even).
  const lhs = d * 2n ** BigInt(53 - E);
  if (lhs > 1_000_000n) return true;
  if (lhs < 1_000_000n) return false;
  // Tie: rounds to the neighbour with an even significand; F's significand is F·2^(52−E).
  return E === 52 && (F & 1n) === 1n;
}

function bindsToView(check: OCheck, viewSubjects: Set<string>): boolean {
  const C = new Set(check.subjects.map(pythonLower));
  if (viewSubjects.size === 0 && C.size === 0) return true;
  for (const x of C) if (viewSubjects.has(x)) return true;
  return false;
}

/** Evaluates a valid view at T (already parsed, µs). `Tstring` is echoed verbatim. */
export function evaluateDecoded(view: OView, viewId: string, Tstring: string, T: bigint): OracleWarrantView {
  const P = view.proposition_id;
  // Every non-empty record time is parsed, in every evaluation: resolve them all first.
  const aTimes = view.assertions.map((a) => availability(a.asserted_at, T));
  const eTimes = view.evidence.map((e) => availability(e.observed_at, T));
  const kTimes = view.checks.map((c) => availability(c.observed_at, T));

  const A = view.assertions.filter((_, i) => aTimes[i] !== null);
  const S = view.evidence.filter((e, i) => eTimes[i] !== null && e.polarity === 'supports');
  const O = view.evidence.filter((e, i) => eTimes[i] !== null && e.polarity === 'opposes');
  const Kidx = view.checks.map((_, i) => i).filter((i) => kTimes[i] !== null);

  const viewSubjects = new Set(view.subjects.map(pythonLower));
  const classes = view.checks.map((c, i) => {
    if (kTimes[i] === null) return 0;
    const trusted = TRUSTED.has(c.source.origin_type);
    let cls: number;
    if (HUMAN_METHODS.has(c.method)) cls = trusted ? 3 : 1;
    else if (EXTERNAL_METHODS.has(c.method)) cls = trusted ? 2 : 1;
    else if (INDIRECT_METHODS.has(c.method)) cls = 1;
    else cls = 0;
    if (cls >= 2 && !bindsToView(c, viewSubjects)) cls = 1;
    if (cls >= 2 && c.result === 'inconclusive') cls = 1;
    return cls;
  });
  const verif = classes.reduce((m, c) => Math.max(m, c), 0);

  // Conflict.
  const openRows = view.conflicts.filter((c) => c.status === 'open');
  const resolvedRows = view.conflicts.filter((c) => c.status === 'resolved');
  const signs = new Set<string>([...S, ...O].map((e) => e.polarity));
  for (const i of Kidx) signs.add((view.checks[i] as OCheck).result);
  const implied = signs.has('supports') && signs.has('opposes');
  const conflict = openRows.length > 0 || implied ? 'OPEN' : resolvedRows.length > 0 ? 'RESOLVED' : 'NONE';

  // Currency.
  const superseded = view.lineage.some((l) => l.kind === 'superseded_by' && names(l.from_id, P));
  const newestOf = (idx: number[]): number | null => {
    let best: number | null = null;
    for (const i of idx) {
      if (best === null || (kTimes[i] as bigint) > (kTimes[best] as bigint)) best = i;
    }
    return best;
  };
  const conferring = verif === 0 ? [] : view.checks.map((_, i) => i).filter((i) => classes[i] === verif);
  const newestConferring = newestOf(conferring);
  const stale = newestConferring !== null && isStale(T - (kTimes[newestConferring] as bigint), view.freshness_policy_seconds);
  const currency = superseded ? 'SUPERSEDED' : stale ? 'STALE' : 'CURRENT';
  const freshestIdx = newestConferring ?? newestOf(Kidx);

  // Sufficiency.
  const degraded = view.degraded || view.omitted_sources.length > 0 || view.retrieval_scope !== 'complete';
  const nothing = A.length === 0 && S.length === 0 && O.length === 0 && Kidx.length === 0;
  const sufficiency = degraded ? 'DEGRADED' : nothing ? 'INSUFFICIENT' : 'SUFFICIENT';

  // Acceptance.
  const opposingHigh = view.checks.some((c, i) => c.result === 'opposes' && (classes[i] as number) >= 2);
  let acceptance: string;
  if (A.length === 0 && S.length === 0) acceptance = 'UNACCEPTED';
  else if (verif >= 2 && conflict !== 'OPEN' && !superseded && sufficiency === 'SUFFICIENT' && !stale && !opposingHigh) acceptance = 'ACCEPTED';
  else acceptance = 'TENTATIVE';
  const verification = CLASS_NAMES[verif] as string;

  // Lineage count (docs/spec/protocol.md §6.9) over A, S, O, K.
  const lineageIds = new Set<string>();
  for (const r of [...A, ...S, ...O]) lineageIds.add(r.source.lineage_id);
  for (const i of Kidx) lineageIds.add((view.checks[i] as OCheck).source.lineage_id);

  // Strength (docs/spec/protocol.md §7.4), in hundredths.
  const acceptancePoints = acceptance === 'ACCEPTED' ? 45 : acceptance === 'TENTATIVE' ? 15 : 0;
  const verificationPoints = [0, 5, 20, 25][verif] as number;
  let k = 15 + acceptancePoints + verificationPoints + 5 * Math.min(lineageIds.size, 2);
  if (conflict === 'OPEN') k -= 20;
  if (currency === 'STALE') k -= 15;
  if (currency === 'SUPERSEDED') k -= 35;
  if (sufficiency === 'DEGRADED') k -= 15;
  if (sufficiency === 'INSUFFICIENT') k = Math.min(k, 10);
  k = Math.min(100, Math.max(0, k));

  // Rationale codes (docs/spec/protocol.md §7.5), emission order.
  const codes: string[] = [];
  if (aTimes.some((t) => t === null)) codes.push('availability.future_assertion');
  if (eTimes.some((t) => t === null)) codes.push('availability.future_evidence');
  if (openRows.length > 0) codes.push('conflict.open');
  else if (implied) codes.push('conflict.implied_polarity');
  else if (conflict === 'RESOLVED') codes.push('conflict.resolved');
  if (view.checks.some((c) => ENDOGENOUS.has(c.source.origin_type) && EXTERNAL_METHODS.has(c.method))) codes.push('verification.laundered_endogenous');
  if (kTimes.some((t) => t === null)) codes.push('verification.not_available_at_t');
  codes.push(`verification.${verification.toLowerCase()}`);
  if (view.checks.some((c) => c.result === 'inconclusive')) codes.push('verification.inconclusive_present');
  if (view.checks.some((c) => c.result === 'opposes')) codes.push('verification.opposing_check');
  if (stale) codes.push('currency.stale_check');
  if (superseded) codes.push('currency.superseded');
  if (sufficiency === 'DEGRADED') codes.push('sufficiency.degraded');
  if (sufficiency === 'INSUFFICIENT') codes.push('sufficiency.none');
  codes.push(acceptance === 'UNACCEPTED' ? 'acceptance.none' : `acceptance.${acceptance.toLowerCase()}`);

  return {
    protocol_version: 'EWP-0.2.0',
    proposition_id: P,
    view_id: viewId,
    policy_id: 'reference-v2',
    policy_version: 'reference-v2',
    evaluated_at: Tstring,
    warrant: {
      acceptance,
      conflict,
      verification,
      currency,
      sufficiency,
      strength: k / 100,
      rationale_codes: sortedByCodePoint(codes),
    },
    supporting_evidence_ids: sortedByCodePoint(S.map((e) => e.evidence_id)),
    opposing_evidence_ids: sortedByCodePoint(O.map((e) => e.evidence_id)),
    independent_lineage_count: lineageIds.size,
    checks: sortedByCodePoint(view.checks.map((c) => c.check_id)),
    freshest_check: freshestIdx === null ? null : (view.checks[freshestIdx] as OCheck).check_id,
    stale,
    open_conflicts: sortedByCodePoint(openRows.map((c) => c.conflict_id)),
    resolved_conflicts: sortedByCodePoint(resolvedRows.map((c) => c.conflict_id)),
    omitted_sources: sortedByCodePoint(view.omitted_sources),
    derived_from: sortedByCodePoint(view.lineage.filter((l) => l.kind === 'derived_from').map((l) => l.to_id)),
    supersedes: sortedByCodePoint(view.lineage.filter((l) => l.kind === 'supersedes').map((l) => l.to_id)),
    superseded_by: sortedByCodePoint(view.lineage.filter((l) => l.kind === 'superseded_by' && names(l.from_id, P)).map((l) => l.to_id)),
    falsification_conditions: [],
  };
}
