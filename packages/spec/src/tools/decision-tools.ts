/**
 * The decision tools (docs/spec/receipts.md §12): the gate decisions recorded in the ledger, which
 * recorded actions are held because their evidence changed, the signing keys, and how a claimed
 * action ended. Every binding's `ewp_may_act` records under its own gate; `ewp_decision_outcome`
 * reports on the decisions of the caller's gate.
 */
import { z } from 'zod/v4';
import { idList, ledgerEntrySchema, shortenedItem, text } from './shared.js';

const count = z.number().int().min(0);
const keyState = z.enum(['ACTIVE', 'RETIRED', 'REVOKED']);
/** Proposition → why it is invalidated. */
const invalidated = z.record(z.string(), text);

/** One line of a decision listing. */
const decisionSummary = z.object({
  decision_id: text,
  chain_index: count,
  action_id: text,
  decision: text,
  may_act: text,
  rule: text,
  propositions: idList,
  evaluated_at: text,
  held: z.boolean().describe('a recovery gate held the decision'),
});

/** One decision shown whole: the record (as signed), its confirmation, execution and outcome, and its offline verification. */
const decisionShown = z.object({
  decision: z
    .looseObject({
      decision_id: text,
      chain_index: count,
      committed_at: text.optional(),
      record: z.record(z.string(), z.unknown()).optional().describe('the decision record (docs/spec/receipts.md §12)'),
      signature: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .describe('the stored decision'),
  confirmation: ledgerEntrySchema.nullable().optional(),
  execution: ledgerEntrySchema.nullable().optional().describe('the claim of its one execution'),
  outcome: ledgerEntrySchema.nullable().optional(),
  verification: z
    .looseObject({
      ok: z.boolean(),
      status: text,
      reason: text.optional(),
      receipt_digests: z.record(z.string(), text).optional(),
      signature: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .describe('its warrant receipts, rule and decision re-derived from the stored snapshots'),
  truncated: z.literal(true).optional().describe('the decision was shortened to fit the reply'),
});

const heldAction = z.object({
  decision_id: text,
  action_id: text,
  decided: text,
  gate: text,
  invalidated,
  requirements: idList.describe('propositions to re-evaluate before this action may proceed'),
});

const reevaluatedAction = z.object({ decision_id: text, action_id: text, decided: text, invalidated });

/** The decision tools, in `tools/list` order. */
export const DECISION_TOOL_SPECS = {
  ewp_decisions: {
    name: 'ewp_decisions',
    title: 'Recorded gate decisions',
    description:
      "List the gate decisions recorded in the ledger (action, decision, rule, consulted propositions, T) a page at a time: the reply's " +
      'next_cursor, when not null, is the after_index of the next page; a page stops at limit decisions or 64 KiB, and a decision ' +
      'too large for a page is shortened with truncated: true. Or with decision_id show one ' +
      'decision with its confirmation, execution and outcome, and verify it offline (its warrant receipts, rule and decision re-derived ' +
      'from the stored snapshots).',
    role: 'read',
    input: z.object({
      decision_id: z.string().min(1).optional().describe('show this decision (with its outcome and verification) instead of a list'),
      proposition_id: z.string().min(1).optional().describe('only decisions that consulted this proposition'),
      after_index: z.number().int().min(0).optional().describe("the cursor: only decisions after this chain index (pass the previous page's next_cursor)"),
      limit: z.number().int().min(1).max(1000).optional().describe('most decisions in the page: default 100, oldest first (a page also stops at 64 KiB)'),
    }),
    output: z.union([
      z.object({
        decisions: z.array(z.union([decisionSummary, shortenedItem])),
        next_cursor: z.number().int().nullable().describe('the after_index of the next page; null on the last'),
        truncated: count.describe('how many decisions of the page were shortened'),
      }),
      decisionShown,
    ]),
  },
  ewp_recovery_plan: {
    name: 'ewp_recovery_plan',
    title: 'Which recorded actions are held',
    description:
      'Re-check the recorded decisions against the newest evidence and the recorded retractions: which propositions changed ' +
      '(evidence_changed, evidence_missing, evidence_refuted), which derive from them, and which recorded actions are held until ' +
      'their own dependency path is re-evaluated. Read only. The held actions come a page at a time (64 KiB): held_total counts them ' +
      'all, and next_cursor, passed as cursor with the same since, lists the next ones; reevaluated lists the first that fit (reevaluated_total).',
    role: 'read',
    input: z.object({
      since: z
        .union([z.number().int().min(0), z.string().min(1)])
        .optional()
        .describe('only decisions after this chain index, or committed at or after this ISO 8601 time'),
      cursor: z
        .string()
        .regex(/^\d{1,9}$/, "must be a previous answer's next_cursor")
        .optional()
        .describe("a previous answer's next_cursor: the held actions after those it listed"),
    }),
    output: z.object({
      since: z.union([z.number(), text]).nullable(),
      decisions: count.describe('decisions examined'),
      changed: z.record(z.string(), text).describe('propositions whose evidence changed, with the reason'),
      reevaluate: idList.describe('propositions to re-evaluate, in dependency order'),
      held: z.array(z.union([heldAction, shortenedItem])),
      held_total: count,
      next_cursor: text.nullable().describe('pass as cursor for the next held actions; null on the last'),
      reevaluated: z.array(z.union([reevaluatedAction, shortenedItem])),
      reevaluated_total: count,
      clear: count.describe('recorded actions whose evidence is unchanged'),
      ignored_lineage: count,
      plan_id: text.nullable(),
    }),
  },
  ewp_keys: {
    name: 'ewp_keys',
    title: 'Signing keys and their states',
    description:
      'The signing keys the ledger registers (decision records are signed and verified against them), each with its public key, its state ' +
      '(ACTIVE signs, RETIRED still verifies, REVOKED verifies nothing) and every state it had. Read only; public keys only.',
    role: 'read',
    input: z.strictObject({}),
    output: z.object({
      keys: z.array(z.object({ key_id: text, public_key_hex: text, state: keyState, since: text, history: z.array(z.object({ state: keyState, at: text })) })),
    }),
  },
  ewp_decision_outcome: {
    name: 'ewp_decision_outcome',
    title: 'Report how a claimed action ended',
    description:
      'After acting on an ewp_may_act answer with claimed: true, report the outcome: succeeded, or failed with its error. Recorded once ' +
      'per decision in the ledger beside the decision and its claim (a second report is refused). Needs the ingest role.',
    role: 'ingest',
    input: z.object({
      decision_id: z.string().min(1).describe('the decision_id ewp_may_act answered with claimed: true'),
      outcome: z.enum(['succeeded', 'failed']).describe('how the action ended'),
      error: z.string().min(1).max(4096).optional().describe("the action's error text, for a failed action"),
      call_id: z.string().min(1).optional().describe('when given, must be the call the decision names (a check)'),
    }),
    output: z.object({
      recorded: z.boolean().describe('false when the call was never claimed (nothing was recorded)'),
      decision_id: text,
      call_id: text,
      outcome: z.enum(['succeeded', 'failed']),
    }),
  },
} as const;
