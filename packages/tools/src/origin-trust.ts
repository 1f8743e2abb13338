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
 * How the writers of one surface attest trusted origins, as its refusals say it: the words (the tool
 * argument, the command-line flag) and where the refusal points (that argument's JSON path, or
 * `record`: the first record of the view that claims a trusted origin).
 */
export interface AttestationSurface {
  how: string;
  path: string | 'record';
}

/** The tool bindings' attestation: the `ingest_attestation: true` argument. */
export const TOOL_ATTESTATION: AttestationSurface = { how: 'the ingest pipeline must set ingest_attestation: true', path: '$.ingest_attestation' };

/**
 * Refuse a write that brings trusted origins without attestation, or at all when the operator's
 * ingest capability does not accept trusted origins. `recordPath` names the first record claiming
 * one, for surfaces whose refusal points at the record.
 * @throws ToolRefusal `EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN`
 */
export function requireAttestation(
  sources: readonly SourceRef[],
  attested: boolean,
  context: Pick<ToolContext, 'trustedOrigins'>,
  surface: AttestationSurface = TOOL_ATTESTATION,
  recordPath?: () => string | undefined,
): void {
  const trusted = trustedOriginsIn(sources);
  if (trusted.length === 0) return;
  if (!context.trustedOrigins) {
    throw new ToolRefusal(
      'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
      `records use trusted origin(s) ${trusted.join(', ')}, which this ingest capability does not accept`,
    );
  }
  if (!attested) {
    throw new ToolRefusal('EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN', `records use trusted origin(s) ${trusted.join(', ')}; ${surface.how}`, {
      path: surface.path === 'record' ? recordPath?.() : surface.path,
    });
  }
}

/** The JSON path of the first record of `view` whose source claims a trusted origin, if any. */
export function trustedOriginPath(view: Records): string | undefined {
  const lists: [string, readonly { source: SourceRef }[]][] = [
    ['assertions', view.assertions],
    ['evidence', view.evidence],
    ['checks', view.checks],
  ];
  for (const [name, records] of lists) {
    const i = records.findIndex((r) => isTrustedOrigin(r.source.origin_type));
    if (i !== -1) return `$.${name}[${i}].source.origin_type`;
  }
  return undefined;
}

/** {@link requireAttestation} over a whole view. */
export function requireViewAttestation(
  view: EvidenceView,
  attested: boolean,
  context: Pick<ToolContext, 'trustedOrigins'>,
  surface: AttestationSurface = TOOL_ATTESTATION,
): void {
  // Most views claim no trusted origin: one scan without allocation settles those.
  const first = trustedOriginPath(view);
  if (first !== undefined) requireAttestation(sourcesOf(view), attested, context, surface, () => first);
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
