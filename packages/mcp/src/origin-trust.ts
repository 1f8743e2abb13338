/**
 * Trusted origins (`tool`, `document`, `human`, ...) are what lifts verification to EXTERNAL or
 * HUMAN, so an MCP caller may only introduce them as the ingest pipeline, with an explicit
 * declaration; anonymous inline views are demoted to untrusted `inline:<origin>`.
 */
import { type EvidenceView, isTrustedOrigin, type SourceRef } from '@ewp/core';
import { ToolRefusal } from './refusal.js';

/** Every source of a view (assertions, evidence, checks). */
function sourcesOf(view: Pick<EvidenceView, 'assertions' | 'evidence' | 'checks'>): SourceRef[] {
  return [...view.assertions.map((a) => a.source), ...view.evidence.map((e) => e.source), ...view.checks.map((c) => c.source)];
}

/** Trusted origin types used by the given sources, sorted and distinct. */
export function trustedOriginsIn(sources: readonly SourceRef[]): string[] {
  return [...new Set(sources.map((s) => s.origin_type).filter((o) => isTrustedOrigin(o)))].sort();
}

/**
 * Refuse a write that brings trusted origins without `ingest_attestation: true`.
 * @throws ToolRefusal `EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN`
 */
export function requireAttestation(sources: readonly SourceRef[], attested: boolean): void {
  if (attested) return;
  const trusted = trustedOriginsIn(sources);
  if (trusted.length > 0) {
    throw new ToolRefusal(
      'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
      `records use trusted origin(s) ${trusted.join(', ')}; the ingest pipeline must set ingest_attestation: true`,
    );
  }
}

/** {@link requireAttestation} over a whole view. */
export function requireViewAttestation(view: EvidenceView, attested: boolean): void {
  requireAttestation(sourcesOf(view), attested);
}

function demoteSource(source: SourceRef): SourceRef {
  return isTrustedOrigin(source.origin_type) ? { ...source, origin_type: `inline:${source.origin_type}` } : source;
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
