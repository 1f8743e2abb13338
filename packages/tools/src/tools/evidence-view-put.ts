import type { EvidenceView } from '@ewp/core';
import { ToolRefusal, toRefusal } from '../refusal.js';
import { isAbsent, isAttested, isObject, type ToolArguments } from '../tool-arguments.js';
import type { ToolImplementation } from '../tool-context.js';
import { admitView, writeViews } from '../write-path.js';

/** Arguments that belong to the call, not to a view given field by field. */
const CALL_ARGUMENTS = new Set(['view', 'ingest_attestation']);

/**
 * WarrantViews are computed, never stored: refuse anything that looks like one (the reference's
 * tests: a `warrant` holding a `proposition_id`, or a `warrant` + `evaluated_at` body without assertions).
 */
function refusePersistedWarrant(args: ToolArguments, body: Record<string, unknown>): void {
  for (const candidate of [args.warrant, body.warrant]) {
    if (isAbsent(candidate)) continue;
    const named =
      typeof candidate === 'string'
        ? candidate.includes('proposition_id')
        : Array.isArray(candidate)
          ? candidate.includes('proposition_id')
          : isObject(candidate) && Object.hasOwn(candidate, 'proposition_id');
    if (named)
      throw new ToolRefusal('EWP_REFUSE_PERSIST_WARRANT', 'a WarrantView is computed, never stored; put the EvidenceView instead', { path: '$.warrant' });
  }
  if (body.warrant && body.evaluated_at && !Object.hasOwn(body, 'assertions')) {
    throw new ToolRefusal('EWP_REFUSE_PERSIST_WARRANT', 'this looks like a WarrantView (warrant + evaluated_at); put the EvidenceView instead');
  }
}

function viewBody(args: ToolArguments): Record<string, unknown> {
  if (!isAbsent(args.view)) {
    if (!isObject(args.view)) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be an EvidenceView object', { path: '$.view' });
    return args.view;
  }
  return Object.fromEntries(Object.entries(args).filter(([key]) => !CALL_ARGUMENTS.has(key)));
}

/** `ewp_evidence_view_put` (write): store an immutable snapshot. */
export const evidenceViewPutTool: ToolImplementation<'ewp_evidence_view_put'> = {
  async run(args, context) {
    const body = viewBody(args);
    refusePersistedWarrant(args, body);
    let view: EvidenceView;
    try {
      view = admitView(body, { attested: isAttested(args), trustedOrigins: context.trustedOrigins });
    } catch (error) {
      throw toRefusal(error);
    }
    const { outcomes, failure } = await writeViews(context.store, [view]);
    const outcome = outcomes[0];
    if (outcome === undefined) throw toRefusal(failure);
    if (outcome.refusal !== undefined) throw toRefusal(outcome.refusal);
    return {
      stored: true,
      status: outcome.result.status,
      proposition_id: outcome.result.proposition_id,
      view_id: outcome.result.view_id,
      assertions: view.assertions.length,
      checks: view.checks.length,
    };
  },
};
