/**
 * Trusted origins (`tool`, `document`, `human`, ...) are what lifts verification to EXTERNAL or
 * HUMAN, so a caller may only introduce them as the ingest pipeline, with an explicit
 * declaration; anonymous inline views are demoted to untrusted `inline:<origin>`. This is the one
 * place those two rules live, for every binding.
 */
import { ENDOGENOUS_ORIGINS, type EvidenceView, isTrustedOrigin, type SourceRef } from '@ewp/core';
import { ToolRefusal } from './refusal.js';
import type { ToolContext } from './tool-context.js';

type Records = Pick<EvidenceView, 'assertions' | 'evidence' | 'checks'>;

/** Every source of a set of records (assertions, evidence, checks). */
export function sourcesOf(records: Records): SourceRef[] {
  return [...records.assertions.map((a) => a.source), ...records.evidence.map((e) => e.source), ...records.checks.map((c) => c.source)];
}

/** Trusted origin types used by the given sources, sorted and distinct. */
export function trustedOriginsIn(sources: readonly SourceRef[]): string[] {
  return [...new Set(sources.map((s) => s.origin_type).filter((o) => isTrustedOrigin(o)))].sort();
}

/**
 * Refuse a write that brings trusted origins without `ingest_attestation: true`, or at all when
 * the operator's ingest capability does not accept trusted origins.
 * @throws ToolRefusal `EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN`
 */
export function requireAttestation(sources: readonly SourceRef[], attested: boolean, context: Pick<ToolContext, 'trustedOrigins'>): void {
  const trusted = trustedOriginsIn(sources);
  if (trusted.length === 0) return;
  if (!context.trustedOrigins) {
    throw new ToolRefusal(
      'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
      `records use trusted origin(s) ${trusted.join(', ')}, which this ingest capability does not accept`,
    );
  }
  if (!attested) {
    throw new ToolRefusal(
      'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
      `records use trusted origin(s) ${trusted.join(', ')}; the ingest pipeline must set ingest_attestation: true`,
      { path: '$.ingest_attestation' },
    );
  }
}

/** {@link requireAttestation} over a whole view. */
export function requireViewAttestation(view: EvidenceView, attested: boolean, context: Pick<ToolContext, 'trustedOrigins'>): void {
  requireAttestation(sourcesOf(view), attested, context);
}

/** Whether an inline view's trusted origins count as given: the ingest role attests them, and the capability accepts them. */
export function inlineOriginsTrusted(attested: boolean, context: Pick<ToolContext, 'ingest' | 'trustedOrigins'>): boolean {
  return context.ingest && context.trustedOrigins && attested;
}

/** The prefix a demoted trusted origin carries (`inline:tool`). */
const INLINE_PREFIX = 'inline:';

function demoteSource(source: SourceRef): SourceRef {
  return isTrustedOrigin(source.origin_type) ? { ...source, origin_type: `${INLINE_PREFIX}${source.origin_type}` } : source;
}

/**
 * How policy `reference-v2` and the ingest rules treat an origin: `trusted` (may confer EXTERNAL or
 * HUMAN), `endogenous` (the agent's own memory pipeline), `inline-demoted` (a trusted origin an
 * unattested inline view claimed, rewritten by {@link demoteInlineView}), or `untrusted`.
 */
export type OriginTrust = 'trusted' | 'endogenous' | 'inline-demoted' | 'untrusted';

/** The {@link OriginTrust} of one `origin_type`. */
export function originTrust(origin: string): OriginTrust {
  if (isTrustedOrigin(origin)) return 'trusted';
  if (ENDOGENOUS_ORIGINS.has(origin)) return 'endogenous';
  if (origin.startsWith(INLINE_PREFIX) && isTrustedOrigin(origin.slice(INLINE_PREFIX.length))) return 'inline-demoted';
  return 'untrusted';
}

/**
 * Rewrite every trusted origin of an inline view to `inline:<origin>` (untrusted). Returns the new
 * view and the sorted distinct origins that were demoted.
 */
export function demoteInlineView(view: EvidenceView): { view: EvidenceView; demoted: string[] } {
  const demoted = trustedOriginsIn(sourcesOf(view));
  if (demoted.length === 0) return { view, demoted };
  return {
    view: {
      ...view,
      assertions: view.assertions.map((a) => ({ ...a, source: demoteSource(a.source) })),
      evidence: view.evidence.map((e) => ({ ...e, source: demoteSource(e.source) })),
      checks: view.checks.map((c) => ({ ...c, source: demoteSource(c.source) })),
    },
    demoted,
  };
}
