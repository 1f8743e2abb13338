/**
 * Trusted origins need an explicit attestation (STORES.md §5): a write whose records use a
 * trusted `origin_type` is refused unless the call sets `ingest_attestation: true` and the
 * operator's ingest capability allows trusted origins at all.
 */
import { type EvidenceView, isTrustedOrigin } from '@ewp/core';
import { refusal, ToolRefusalError } from './tool-refusal.js';

/** The ingest capability the operator hands to {@link ewpTools}; without it, no write tool exists. */
export interface IngestCapability {
  /** Whether writes may carry trusted origins when attested (default true). */
  allowTrustedOrigins?: boolean;
}

/** The sorted trusted origins used by the records of `view`. */
export function trustedOriginsOf(view: Pick<EvidenceView, 'assertions' | 'evidence' | 'checks'>): string[] {
  const found = new Set<string>();
  for (const record of [...view.assertions, ...view.evidence, ...view.checks]) {
    if (isTrustedOrigin(record.source.origin_type)) found.add(record.source.origin_type);
  }
  return [...found].sort();
}

export function requireAttestation(
  view: Pick<EvidenceView, 'assertions' | 'evidence' | 'checks'>,
  attestation: boolean | undefined,
  capability: IngestCapability,
): void {
  const trusted = trustedOriginsOf(view);
  if (trusted.length === 0) return;
  if (capability.allowTrustedOrigins === false) {
    throw new ToolRefusalError(
      refusal('EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN', `trusted origins (${trusted.join(', ')}) are not accepted by this ingest capability`),
    );
  }
  if (attestation !== true) {
    throw new ToolRefusalError(
      refusal(
        'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
        `records with trusted origins (${trusted.join(', ')}) need ingest_attestation: true`,
        '$.ingest_attestation',
      ),
    );
  }
}

/**
 * An inline view evaluated without an attested ingest role: every trusted `origin_type` becomes
 * `inline:<origin>` (untrusted), so an anonymous copy of a tool-verified view cannot confer
 * EXTERNAL/HUMAN (STORES.md §5, `ewp_warrant_now`). Returns the view and the sorted demoted origins.
 */
export function demoteTrustedOrigins(view: EvidenceView): { view: EvidenceView; demoted: string[] } {
  const demoted = trustedOriginsOf(view);
  if (demoted.length === 0) return { view, demoted };
  const demote = <R extends { source: EvidenceView['assertions'][number]['source'] }>(record: R): R =>
    isTrustedOrigin(record.source.origin_type) ? { ...record, source: { ...record.source, origin_type: `inline:${record.source.origin_type}` } } : record;
  return {
    view: { ...view, assertions: view.assertions.map(demote), evidence: view.evidence.map(demote), checks: view.checks.map(demote) },
    demoted,
  };
}
