import type { Assertion, EvidenceItem } from '@ewp/core';
import type { LedgerRecord } from '@ewp/ledger';
import { appendRecords, decodeRecords, sourceWithDefaults } from '../incremental-record.js';
import { requireAttestation } from '../origin-trust.js';
import { ToolRefusal } from '../refusal.js';
import { idValue, isAbsent, isAttested, readId, readObject, readText } from '../tool-arguments.js';
import type { ToolImplementation } from '../tool-context.js';

/** `ewp_evidence_record` (write): append one evidence item (and optionally its assertion). */
export const evidenceRecordTool: ToolImplementation<'ewp_evidence_record'> = {
  async run(args, context) {
    const propositionId = readId(args, 'proposition_id', true);
    const evidence = readObject(args, 'evidence');
    if (evidence === undefined) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'is required (an object)', { path: '$.evidence' });
    const newViewId = readId(args, 'new_view_id');
    const evidenceId = idValue(evidence.evidence_id, 'evidence.evidence_id', true) as string;
    if (isAbsent(evidence.polarity)) {
      throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'is required (supports or opposes); it is never assumed', { path: '$.evidence.polarity' });
    }
    if (isAbsent(evidence.observed_at)) throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'is required', { path: '$.evidence.observed_at' });
    const text = args.text;
    if (!isAbsent(text) && typeof text !== 'string') throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be a string', { path: '$.text' });
    const confidence = args.assertion_confidence;
    if (!isAbsent(confidence) && (typeof confidence !== 'number' || !Number.isFinite(confidence))) {
      throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', 'must be a finite number', { path: '$.assertion_confidence' });
    }
    const assertionId = readId(args, 'assertion_id') ?? `${evidenceId}:a`;
    const assertedBy = readText(args, 'asserted_by') ?? 'mcp';
    const source = sourceWithDefaults(evidence.source, evidenceId, 'evidence.source');
    const rawEvidence = { content: '', ...evidence, evidence_id: evidenceId, proposition_id: propositionId, source };
    const rawAssertions =
      typeof text === 'string' && text !== ''
        ? [
            {
              assertion_id: assertionId,
              proposition_id: propositionId,
              text,
              asserted_by: assertedBy,
              assertion_confidence: isAbsent(confidence) ? 0.5 : confidence,
              source,
              asserted_at: evidence.observed_at,
            },
          ]
        : [];
    const decoded = decodeRecords(propositionId, { evidence: [rawEvidence], assertions: rawAssertions });
    const item = decoded.evidence[0] as EvidenceItem;
    requireAttestation([item.source], isAttested(args), context);
    const records: LedgerRecord[] = [
      ...decoded.assertions.map((record: Assertion): LedgerRecord => ({ kind: 'assertion', record })),
      { kind: 'evidence', record: item },
    ];
    const { result, view } = await appendRecords(context.store, propositionId, records, newViewId);
    return {
      recorded: true,
      evidence_id: item.evidence_id,
      ...(decoded.assertions[0] === undefined ? {} : { assertion_id: decoded.assertions[0].assertion_id }),
      view_id: result.view_id,
      count: view.evidence.length,
    };
  },
};
