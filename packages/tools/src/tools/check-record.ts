import type { VerificationCheck } from '@ewp/core';
import { appendRecords, decodeRecords, sourceWithDefaults } from '../incremental-record.js';
import { requireAttestation } from '../origin-trust.js';
import { ToolRefusal } from '../refusal.js';
import { idValue, isAbsent, isAttested, readId, readObject } from '../tool-arguments.js';
import type { ToolImplementation } from '../tool-context.js';

/** `ewp_check_record` (write): append one verification check as a new snapshot. */
export const checkRecordTool: ToolImplementation<'ewp_check_record'> = {
  async run(args, context) {
    const propositionId = readId(args, 'proposition_id', true);
    const check = readObject(args, 'check');
    if (check === undefined) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'is required (an object)', { path: '$.check' });
    const newViewId = readId(args, 'new_view_id');
    const checkId = idValue(check.check_id, 'check.check_id', true) as string;
    for (const field of ['method', 'observed_at', 'result'] as const) {
      if (isAbsent(check[field])) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'is required', { path: `$.check.${field}` });
    }
    const source = sourceWithDefaults(check.source, `check:${checkId}`, 'check.source');
    const raw = {
      ...check,
      check_id: checkId,
      scope: isAbsent(check.scope) ? propositionId : check.scope,
      source,
    };
    const [decoded] = decodeRecords(propositionId, { checks: [raw] }).checks as [VerificationCheck];
    requireAttestation([decoded.source], isAttested(args), context);
    const { result, view } = await appendRecords(context.store, propositionId, [{ kind: 'check', record: decoded }], newViewId);
    return { recorded: true, check_id: decoded.check_id, view_id: result.view_id, count: view.checks.length };
  },
};
