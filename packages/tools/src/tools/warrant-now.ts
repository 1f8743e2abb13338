import { decodeView, type EvidenceView, normativeWarrant, POLICY_ID, POLICY_VERSION, sortedByCodePoint, type WarrantView } from '@ewp/core';
import { demoteInlineView, inlineOriginsTrusted } from '../origin-trust.js';
import { ToolRefusal, toRefusal } from '../refusal.js';
import { evaluate } from '../stored-view.js';
import { hasArgument, isAbsent, isAttested, isObject, readId, type ToolArguments } from '../tool-arguments.js';
import type { ToolImplementation } from '../tool-context.js';
import { warrantTableFor } from '../warrant-table.js';

const NOTE =
  'Normative: protocol_version, proposition_id, view_id, policy_id, policy_version, evaluated_at and the five warrant axes. ' +
  'The rest is diagnostic. Nothing was persisted.';

/** `evaluated_at`: required and truthy; numbers are taken as their text; other types refused. */
function readEvaluatedAt(args: ToolArguments): string {
  const value = args.evaluated_at;
  const empty = Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
  if (isAbsent(value) || value === '' || value === 0 || value === false || empty) {
    throw new ToolRefusal('EWP_MISSING_EVALUATED_AT', 'is required (an ISO 8601 instant)', { path: '$.evaluated_at' });
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be an ISO 8601 string', { path: '$.evaluated_at' });
}

function readPolicyField(args: ToolArguments, name: 'policy_id' | 'policy_version', expected: string): void {
  const value = args[name];
  if (isAbsent(value) || value === expected) return;
  throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', `only ${JSON.stringify(expected)} is implemented`, { path: `$.${name}` });
}

function decodeInline(value: unknown): EvidenceView {
  if (!isObject(value)) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be an EvidenceView object', { path: '$.view' });
  try {
    return decodeView(value);
  } catch (error) {
    throw toRefusal(error);
  }
}

/** `ewp_warrant_now`: evaluate an inline view or a stored snapshot at the caller's T. Never persists. */
export const warrantNowTool: ToolImplementation<'ewp_warrant_now'> = {
  async run(args, context) {
    const evaluatedAt = readEvaluatedAt(args);
    readPolicyField(args, 'policy_id', POLICY_ID);
    readPolicyField(args, 'policy_version', POLICY_VERSION);
    let w: WarrantView;
    let demoted: string[] | undefined;
    if (hasArgument(args, 'view')) {
      const decoded = decodeInline(args.view);
      let view: EvidenceView;
      if (inlineOriginsTrusted(isAttested(args), context)) {
        view = decoded;
      } else {
        const demotion = demoteInlineView(decoded);
        view = demotion.view;
        demoted = demotion.demoted;
      }
      w = evaluate(view, evaluatedAt);
    } else {
      // A stored snapshot: through the store's warrant table (a lookup while T stays in a kept piece). Its
      // evaluated_at may be another T of the same piece; T is written from the argument below, as
      // warrantNow echoes it verbatim.
      const propositionId = readId(args, 'proposition_id', true);
      w = await warrantTableFor(context.store).pieceWarrant(propositionId, readId(args, 'view_id'), evaluatedAt);
    }
    const n = normativeWarrant(w);
    // Written out, not `{ ...normativeWarrant(w), more }`: a literal that opens with a spread and adds
    // members after it costs V8 several times the allocation of the object itself on every call.
    const fields = {
      protocol_version: n.protocol_version,
      proposition_id: n.proposition_id,
      view_id: n.view_id,
      policy_id: n.policy_id,
      policy_version: n.policy_version,
      evaluated_at: evaluatedAt,
      warrant: n.warrant,
      independent_lineage_count: w.independent_lineage_count,
      supporting_evidence_ids: w.supporting_evidence_ids,
      opposing_evidence_ids: w.opposing_evidence_ids,
      omitted_sources: w.omitted_sources,
      stale: w.stale,
      rationale_codes: sortedByCodePoint(w.warrant.rationale_codes),
    };
    return demoted === undefined ? Object.assign(fields, { note: NOTE }) : Object.assign(fields, { inline_origins_demoted: demoted, note: NOTE });
  },
};
