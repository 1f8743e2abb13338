import { InvalidEvaluatedAt, TimestampOutOfRange, UnknownPolicy } from '../errors.js';
import { namesProposition } from '../decode/decode-view.js';
import { type Instant, isStale, parsedParts, parseInstant, parseInstantParts, staleFrom } from '../time/parse-instant.js';
import {
  type Acceptance,
  type ConflictAxis,
  type Currency,
  type EvidenceView,
  POLICY_ID,
  POLICY_VERSION,
  type Policy,
  PROTOCOL_VERSION,
  type Sufficiency,
  type Verification,
  type VerificationCheck,
  type WarrantView,
} from '@ewp/spec';
import { classifyCheck, lowerSubjects } from './classify-check.js';
import { ENDOGENOUS_ORIGINS, EXTERNAL_METHODS } from './policy-tables.js';

const RANK: Record<Verification, number> = { NONE: 0, INDIRECT: 1, EXTERNAL: 2, HUMAN: 3 };
const BY_RANK: readonly Verification[] = ['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN'];

/** Refuse any policy identity other than `reference-v2` / `reference-v2` (docs/spec/protocol.md §1). */
export function assertReferencePolicy(policy: Policy): void {
  if (typeof policy !== 'object' || policy === null || policy.policy_id !== POLICY_ID || policy.version !== POLICY_VERSION) {
    const shown = typeof policy === 'object' && policy !== null ? `${String(policy.policy_id)}/${String(policy.version)}` : String(policy);
    throw new UnknownPolicy(`this evaluator implements only ${POLICY_ID}/${POLICY_VERSION}, not ${shown}`);
  }
}

/**
 * Parse T (docs/spec/protocol.md §5). A non-string or unparsable T is refused; an instant outside years
 * 1–9999 after UTC conversion is {@link TimestampOutOfRange}.
 */
export function parseEvaluatedAt(evaluatedAt: unknown): Instant {
  if (typeof evaluatedAt !== 'string') throw new InvalidEvaluatedAt(`evaluated_at must be a string, got ${evaluatedAt === null ? 'null' : typeof evaluatedAt}`);
  const t = parseInstant(evaluatedAt);
  if (t === 'unparsable') throw new InvalidEvaluatedAt(`${JSON.stringify(evaluatedAt)} is not an instant`);
  if (t === 'out_of_range') throw new TimestampOutOfRange('$.evaluated_at', evaluatedAt);
  return t;
}

/**
 * A record time: `undefined` when empty, unparsable or later than T (unavailable).
 * The error path is built only on failure: this runs once per record.
 */
function availableAt(time: string, t: Instant, kind: string, index: number, field: string): boolean {
  if (time === '') return false;
  const r = parseInstantParts(time);
  if (r === 1) return false;
  if (r === 2) throw new TimestampOutOfRange(`$.${kind}[${index}].${field}`, time);
  // The instant stays in parsedParts (no object per record time).
  const seconds = parsedParts.seconds;
  const available = seconds < t.seconds || (seconds === t.seconds && parsedParts.micros <= t.micros);
  if (piece !== undefined) {
    // A record is available from its own time on: its time bounds the piece from below or above.
    if (available) piece.notFrom(seconds, parsedParts.micros);
    else piece.notUntil(seconds, parsedParts.micros);
  }
  return available;
}

/**
 * The bounds of the piece of T being found: set only while {@link warrantWithHorizon} runs (the
 * evaluation is synchronous), so the rules below note each instant where their inputs change as
 * they apply it, and `warrantNow` pays one `undefined` test per record for it.
 */
let piece: PieceBounds | undefined;

class PieceBounds {
  fromSeconds = Number.NEGATIVE_INFINITY;
  fromMicros = 0;
  untilSeconds = Number.POSITIVE_INFINITY;
  untilMicros = 0;
  /** The piece starts at this instant or later. */
  notFrom(seconds: number, micros: number): void {
    if (seconds > this.fromSeconds || (seconds === this.fromSeconds && micros > this.fromMicros)) {
      this.fromSeconds = seconds;
      this.fromMicros = micros;
    }
  }
  /** The piece ends at this instant or earlier. */
  notUntil(seconds: number, micros: number): void {
    if (seconds < this.untilSeconds || (seconds === this.untilSeconds && micros < this.untilMicros)) {
      this.untilSeconds = seconds;
      this.untilMicros = micros;
    }
  }
}

/** Whether check time a is later than check time b (seconds and micros kept in parallel arrays). */
function later(seconds: number[], micros: number[], a: number, b: number): boolean {
  return seconds[a]! > seconds[b]! || (seconds[a] === seconds[b] && micros[a]! > micros[b]!);
}

/**
 * Evaluate a decoded view at T under policy `reference-v2` (docs/spec/protocol.md §6–§7). Pure and
 * deterministic: no clock, no I/O. Returns the full WarrantView in raw order (id lists in view
 * order, codes in emission order); {@link normalizeWarrantView} gives the goldens' form.
 *
 * @param evaluatedAt T, echoed verbatim in the result.
 * @throws UnknownPolicy, InvalidEvaluatedAt, TimestampOutOfRange
 */
export function warrantNow(view: EvidenceView, policy: Policy, evaluatedAt: string): WarrantView {
  assertReferencePolicy(policy);
  const t = parseEvaluatedAt(evaluatedAt);
  const p = view.proposition_id;

  // Availability (§6.1). Every non-empty record time is parsed, so an out-of-range one fails
  // the whole evaluation even when another rule would decide first (§5.4).
  const lineages = new Set<string>();
  let anyAssertion = false;
  let futureAssertion = false;
  for (let i = 0; i < view.assertions.length; i++) {
    const a = view.assertions[i]!;
    if (availableAt(a.asserted_at, t, 'assertions', i, 'asserted_at')) {
      anyAssertion = true;
      lineages.add(a.source.lineage_id);
    } else futureAssertion = true;
  }
  const supporting: string[] = [];
  const opposing: string[] = [];
  let futureEvidence = false;
  for (let i = 0; i < view.evidence.length; i++) {
    const e = view.evidence[i]!;
    if (availableAt(e.observed_at, t, 'evidence', i, 'observed_at')) {
      (e.polarity === 'supports' ? supporting : opposing).push(e.evidence_id);
      lineages.add(e.source.lineage_id);
    } else futureEvidence = true;
  }

  // Checks (§6.2–§6.4).
  const viewSubjects = lowerSubjects(view.subjects);
  const n = view.checks.length;
  const classes: Verification[] = new Array(n);
  // Times of the available checks (docs/spec/protocol.md §6.6), without an Instant object per check.
  const available: boolean[] = new Array(n);
  const seconds: number[] = new Array(n);
  const micros: number[] = new Array(n);
  let verificationRank = 0;
  let anyAvailableCheck = false;
  let checkSupports = false;
  let checkOpposes = false;
  let unavailableCheck = false;
  let laundered = false;
  let inconclusive = false;
  let opposingCheck = false;
  let opposingHigh = false;
  for (let i = 0; i < n; i++) {
    const c = view.checks[i]!;
    const at = availableAt(c.observed_at, t, 'checks', i, 'observed_at');
    available[i] = at;
    if (at) {
      seconds[i] = parsedParts.seconds;
      micros[i] = parsedParts.micros;
    }
    const cls = !at ? 'NONE' : classifyCheck(c, viewSubjects);
    classes[i] = cls;
    if (RANK[cls] > verificationRank) verificationRank = RANK[cls];
    if (!at) unavailableCheck = true;
    else {
      anyAvailableCheck = true;
      lineages.add(c.source.lineage_id);
      if (c.result === 'supports') checkSupports = true;
      else if (c.result === 'opposes') checkOpposes = true;
    }
    if (c.result === 'inconclusive') inconclusive = true;
    else if (c.result === 'opposes') {
      opposingCheck = true;
      if (cls === 'EXTERNAL' || cls === 'HUMAN') opposingHigh = true;
    }
    if (!laundered && isLaunderedEndogenous(c)) laundered = true;
  }
  const verification = BY_RANK[verificationRank]!;

  // Conflict (§6.5).
  const openConflicts: string[] = [];
  const resolvedConflicts: string[] = [];
  for (const c of view.conflicts) (c.status === 'open' ? openConflicts : resolvedConflicts).push(c.conflict_id);
  const implied = (supporting.length > 0 || checkSupports) && (opposing.length > 0 || checkOpposes);
  const conflict: ConflictAxis = openConflicts.length > 0 || implied ? 'OPEN' : resolvedConflicts.length > 0 ? 'RESOLVED' : 'NONE';

  // Currency (§6.6) and the lineage diagnostics (§7.2, quirk 1).
  let superseded = false;
  const derivedFrom: string[] = [];
  const supersedes: string[] = [];
  const supersededBy: string[] = [];
  for (const edge of view.lineage) {
    if (edge.kind === 'derived_from') derivedFrom.push(edge.to_id);
    else if (edge.kind === 'supersedes') supersedes.push(edge.to_id);
    else if (edge.kind === 'superseded_by' && namesProposition(edge.from_id, p)) {
      superseded = true;
      supersededBy.push(edge.to_id);
    }
  }
  let newestConferring = -1;
  let newestAvailable = -1;
  for (let i = 0; i < n; i++) {
    if (!available[i]) continue;
    if (newestAvailable < 0 || later(seconds, micros, i, newestAvailable)) newestAvailable = i;
    if (verificationRank > 0 && classes[i] === verification && (newestConferring < 0 || later(seconds, micros, i, newestConferring))) {
      newestConferring = i;
    }
  }
  const stale = newestConferring >= 0 && isStale({ seconds: seconds[newestConferring]!, micros: micros[newestConferring]! }, t, view.freshness_policy_seconds);
  if (piece !== undefined && newestConferring >= 0) {
    // While the same records are available the same check confers, and it turns stale once, at this flip.
    const flip = staleFrom({ seconds: seconds[newestConferring]!, micros: micros[newestConferring]! }, view.freshness_policy_seconds);
    if (flip !== null) {
      if (stale) piece.notFrom(flip.seconds, flip.micros);
      else piece.notUntil(flip.seconds, flip.micros);
    }
  }
  const currency: Currency = superseded ? 'SUPERSEDED' : stale ? 'STALE' : 'CURRENT';

  // Sufficiency (§6.7) and acceptance (§6.8).
  const degraded = view.degraded || view.omitted_sources.length > 0 || view.retrieval_scope !== 'complete';
  const anything = anyAssertion || supporting.length > 0 || opposing.length > 0 || anyAvailableCheck;
  const sufficiency: Sufficiency = degraded ? 'DEGRADED' : anything ? 'SUFFICIENT' : 'INSUFFICIENT';
  const acceptance: Acceptance =
    !anyAssertion && supporting.length === 0
      ? 'UNACCEPTED'
      : verificationRank >= RANK.EXTERNAL && conflict !== 'OPEN' && currency === 'CURRENT' && sufficiency === 'SUFFICIENT' && !opposingHigh
        ? 'ACCEPTED'
        : 'TENTATIVE';

  // Rationale codes, in emission order (§7.5).
  const codes: string[] = [];
  if (futureAssertion) codes.push('availability.future_assertion');
  if (futureEvidence) codes.push('availability.future_evidence');
  if (openConflicts.length > 0) codes.push('conflict.open');
  else if (implied) codes.push('conflict.implied_polarity');
  else if (conflict === 'RESOLVED') codes.push('conflict.resolved');
  if (laundered) codes.push('verification.laundered_endogenous');
  if (unavailableCheck) codes.push('verification.not_available_at_t');
  codes.push(`verification.${verification.toLowerCase()}`);
  if (inconclusive) codes.push('verification.inconclusive_present');
  if (opposingCheck) codes.push('verification.opposing_check');
  if (stale) codes.push('currency.stale_check');
  if (superseded) codes.push('currency.superseded');
  if (sufficiency === 'DEGRADED') codes.push('sufficiency.degraded');
  else if (sufficiency === 'INSUFFICIENT') codes.push('sufficiency.none');
  codes.push(acceptance === 'ACCEPTED' ? 'acceptance.accepted' : acceptance === 'TENTATIVE' ? 'acceptance.tentative' : 'acceptance.none');

  const lineageCount = lineages.size;
  const freshest = newestConferring >= 0 ? newestConferring : newestAvailable;
  return {
    protocol_version: PROTOCOL_VERSION,
    proposition_id: p,
    view_id: view.view_id,
    policy_id: policy.policy_id,
    policy_version: policy.version,
    evaluated_at: evaluatedAt,
    warrant: {
      acceptance,
      conflict,
      verification,
      currency,
      sufficiency,
      strength: strength(acceptance, verification, lineageCount, conflict, currency, sufficiency),
      rationale_codes: codes,
    },
    supporting_evidence_ids: supporting,
    opposing_evidence_ids: opposing,
    independent_lineage_count: lineageCount,
    checks: view.checks.map((c) => c.check_id),
    freshest_check: freshest >= 0 ? view.checks[freshest]!.check_id : null,
    stale,
    open_conflicts: openConflicts,
    resolved_conflicts: resolvedConflicts,
    omitted_sources: view.omitted_sources.slice(),
    derived_from: derivedFrom,
    supersedes,
    superseded_by: supersededBy,
    falsification_conditions: [],
  };
}

/**
 * The warrant at T and the piece of T it belongs to (`[from, until)`): every T' in the piece gives the
 * same WarrantView as T, field for field, except `evaluated_at`, which echoes T' (docs/performance.md,
 * "Warrant pieces"). T matters to the rules only through which records are available (a record time ≤ T)
 * and whether the newest conferring check is stale (§6.6), so the piece is bounded by the nearest
 * record times around T and by that check's staleness flip; {@link warrantNow} notes them as it applies
 * those rules (one copy of the rules). The pieces are not merged: the next piece may carry an equal warrant.
 *
 * @returns `from`: the piece's first instant, `null` when it reaches back to the earliest T (year 1);
 *   `until`: the first instant after it, `null` when it holds for every later T (to year 9999).
 * @throws UnknownPolicy, InvalidEvaluatedAt, TimestampOutOfRange, as {@link warrantNow}
 */
export function warrantWithHorizon(view: EvidenceView, policy: Policy, evaluatedAt: string): WarrantPiece {
  const bounds = new PieceBounds();
  const outer = piece;
  piece = bounds;
  let warrant: WarrantView;
  try {
    warrant = warrantNow(view, policy, evaluatedAt);
  } finally {
    piece = outer;
  }
  return {
    warrant,
    from: bounds.fromSeconds === Number.NEGATIVE_INFINITY ? null : { seconds: bounds.fromSeconds, micros: bounds.fromMicros },
    until: bounds.untilSeconds === Number.POSITIVE_INFINITY ? null : { seconds: bounds.untilSeconds, micros: bounds.untilMicros },
  };
}

/** A warrant and the half-open piece of T, `[from, until)`, over which it holds (see {@link warrantWithHorizon}). */
export interface WarrantPiece {
  /** The WarrantView at the T it was computed for (`evaluated_at` is that T). */
  readonly warrant: WarrantView;
  /** First instant of the piece; `null`: from the earliest T. */
  readonly from: Instant | null;
  /** First instant after the piece; `null`: the warrant holds for ever after. */
  readonly until: Instant | null;
}

/** Whether T lies in the piece: `from ≤ T < until`. */
export function pieceContains(p: WarrantPiece, t: Instant): boolean {
  const f = p.from;
  const u = p.until;
  if (f !== null && (t.seconds < f.seconds || (t.seconds === f.seconds && t.micros < f.micros))) return false;
  return u === null || t.seconds < u.seconds || (t.seconds === u.seconds && t.micros < u.micros);
}

/**
 * The piece's WarrantView at another T inside it: the same view with `evaluated_at` set to T, as
 * {@link warrantNow} would return it; `undefined` when T (parsed as `warrantNow` parses it) is outside the
 * piece. The result shares its lists with the piece: treat it as read-only.
 *
 * @throws InvalidEvaluatedAt, TimestampOutOfRange, as {@link warrantNow}
 */
export function warrantInPiece(p: WarrantPiece, evaluatedAt: string): WarrantView | undefined {
  const t = parseEvaluatedAt(evaluatedAt);
  if (!pieceContains(p, t)) return undefined;
  return p.warrant.evaluated_at === evaluatedAt ? p.warrant : { ...p.warrant, evaluated_at: evaluatedAt };
}

/** An endogenous source dressed up with an external method (human methods do not count). */
function isLaunderedEndogenous(c: VerificationCheck): boolean {
  return ENDOGENOUS_ORIGINS.has(c.source.origin_type) && EXTERNAL_METHODS.has(c.method);
}

const ACCEPTANCE_POINTS: Record<Acceptance, number> = { ACCEPTED: 45, TENTATIVE: 15, UNACCEPTED: 0 };
const VERIFICATION_POINTS: Record<Verification, number> = { HUMAN: 25, EXTERNAL: 20, INDIRECT: 5, NONE: 0 };

/** Non-normative strength in whole hundredths (docs/spec/protocol.md §7.4). */
function strength(
  acceptance: Acceptance,
  verification: Verification,
  lineages: number,
  conflict: ConflictAxis,
  currency: Currency,
  sufficiency: Sufficiency,
): number {
  let k = 15 + ACCEPTANCE_POINTS[acceptance] + VERIFICATION_POINTS[verification] + 5 * Math.min(lineages, 2);
  if (conflict === 'OPEN') k -= 20;
  if (currency === 'STALE') k -= 15;
  if (currency === 'SUPERSEDED') k -= 35;
  if (sufficiency === 'DEGRADED') k -= 15;
  if (sufficiency === 'INSUFFICIENT') k = Math.min(k, 10);
  return Math.min(Math.max(k, 0), 100) / 100;
}
