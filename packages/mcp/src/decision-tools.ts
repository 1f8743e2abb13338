/**
 * The decision tools of the MCP server (docs/spec/receipts.md §12): `ewp_decisions` lists the gate decisions
 * recorded in the ledger, or shows one with its confirmation, execution and outcome and its offline
 * verification; `ewp_recovery_plan` says which recorded actions are held because their evidence
 * changed, and what to re-evaluate; `ewp_keys` lists the signing keys' states. These only read
 * (every caller has them). `ewp_decision_outcome` records how a call `ewp_may_act` claimed ended: a
 * write, for the ingest role. The library functions are `@ewp/tools`' own, the same the CLI calls.
 */
import { EwpError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import {
  boundItem,
  boundPage,
  decisionHistory,
  decisionSummary,
  jsonSchemaOf,
  listDecisions,
  MAX_PAGE_BYTES,
  parseToolArguments,
  listKeyStates,
  planLedgerRecovery,
  readPage,
  recordCallOutcome,
  ToolRefusal,
  verifyDecision,
} from '@ewp/tools';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';

/** Arguments of each decision tool. */
const DECISION_TOOL_INPUTS = {
  ewp_decisions: z.object({
    decision_id: z.string().min(1).optional().describe('show this decision (with its outcome and verification) instead of a list'),
    proposition_id: z.string().min(1).optional().describe('only decisions that consulted this proposition'),
    after_index: z.number().int().min(0).optional().describe("the cursor: only decisions after this chain index (pass the previous page's next_cursor)"),
    limit: z.number().int().min(1).max(1000).optional().describe('most decisions in the page: default 100, oldest first (a page also stops at 64 KiB)'),
  }),
  ewp_recovery_plan: z.object({
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
  ewp_keys: z.strictObject({}),
  ewp_decision_outcome: z.object({
    decision_id: z.string().min(1).describe('the decision_id ewp_may_act answered with claimed: true'),
    outcome: z.enum(['succeeded', 'failed']).describe('how the action ended'),
    error: z.string().min(1).max(4096).optional().describe("the action's error text, for a failed action"),
    call_id: z.string().min(1).optional().describe('when given, must be the call the decision names (a check)'),
  }),
} as const;

/** A decision tool's name. */
export type DecisionToolName = keyof typeof DECISION_TOOL_INPUTS;

const DESCRIPTIONS: Record<DecisionToolName, { title: string; description: string }> = {
  ewp_decisions: {
    title: 'Recorded gate decisions',
    description:
      "List the gate decisions recorded in the ledger (action, decision, rule, consulted propositions, T) a page at a time: the reply's " +
      'next_cursor, when not null, is the after_index of the next page; a page stops at limit decisions or 64 KiB, and a decision ' +
      'too large for a page is shortened with truncated: true. Or with decision_id show one ' +
      'decision with its confirmation, execution and outcome, and verify it offline (its warrant receipts, rule and decision re-derived ' +
      'from the stored snapshots).',
  },
  ewp_recovery_plan: {
    title: 'Which recorded actions are held',
    description:
      'Re-check the recorded decisions against the newest evidence and the recorded retractions: which propositions changed ' +
      '(evidence_changed, evidence_missing, evidence_refuted), which derive from them, and which recorded actions are held until ' +
      'their own dependency path is re-evaluated. Read only. The held actions come a page at a time (64 KiB): held_total counts them ' +
      'all, and next_cursor, passed as cursor with the same since, lists the next ones; reevaluated lists the first that fit (reevaluated_total).',
  },
  ewp_keys: {
    title: 'Signing keys and their states',
    description:
      'The signing keys the ledger registers (decision records are signed and verified against them), each with its public key, its state ' +
      '(ACTIVE signs, RETIRED still verifies, REVOKED verifies nothing) and every state it had. Read only; public keys only.',
  },
  ewp_decision_outcome: {
    title: 'Report how a claimed action ended',
    description:
      'After acting on an ewp_may_act answer with claimed: true, report the outcome: succeeded, or failed with its error. Recorded once ' +
      'per decision in the ledger beside the decision and its claim (a second report is refused). Needs the ingest role.',
  },
};

/** The decision tools that write (the ingest role only). */
const WRITING: ReadonlySet<DecisionToolName> = new Set(['ewp_decision_outcome']);

/** The gate name of the decisions `ewp_may_act` records over MCP (the only ones `ewp_decision_outcome` reports on). */
export const MCP_GATE = 'mcp';

/** The decision tools' names, in `tools/list` order. */
export const DECISION_TOOL_NAMES = Object.keys(DECISION_TOOL_INPUTS) as DecisionToolName[];

/** Whether `name` is a decision tool. */
export function isDecisionToolName(name: unknown): name is DecisionToolName {
  return typeof name === 'string' && Object.hasOwn(DECISION_TOOL_INPUTS, name);
}

function argumentsOf<N extends DecisionToolName>(name: N, raw: unknown): z.infer<(typeof DECISION_TOOL_INPUTS)[N]> {
  return parseToolArguments(DECISION_TOOL_INPUTS[name], raw) as z.infer<(typeof DECISION_TOOL_INPUTS)[N]>;
}

/** Records the outcome of the call an MCP `ewp_may_act` claimed, through the library's one outcome path. */
async function recordOutcome(store: EvidenceStore, a: z.infer<(typeof DECISION_TOOL_INPUTS)['ewp_decision_outcome']>): Promise<Record<string, unknown>> {
  const history = await decisionHistory(store, a.decision_id);
  const { gate, call_id: callId } = history.decision.record;
  const at = { path: '$.decision_id' };
  if (gate !== MCP_GATE)
    throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', `decision ${a.decision_id} was recorded by gate ${JSON.stringify(gate)}, not over MCP`, at);
  if (a.call_id !== undefined && a.call_id !== callId) {
    throw new ToolRefusal('EWP_REFUSE_INVALID_ARGUMENTS', `decision ${a.decision_id} names call ${JSON.stringify(callId)}, not ${JSON.stringify(a.call_id)}`, {
      path: '$.call_id',
    });
  }
  // An outcome without a claim would say an action ran that nobody allowed; a second one would rewrite the first.
  if (history.execution === null) {
    throw new ToolRefusal('EWP_REFUSE_DECISION_NOT_EXECUTABLE', `decision ${a.decision_id} (${history.decision.record.decision}) claimed no execution`, at);
  }
  if (history.outcome !== null) {
    throw new ToolRefusal(
      'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
      `decision ${a.decision_id} already has its outcome (${String(history.outcome.body.status)})`,
      at,
    );
  }
  const outcome = a.outcome === 'failed' ? { status: a.outcome, error: a.error ?? 'failed' } : { status: a.outcome };
  const recorded = await recordCallOutcome(store, gate, callId, outcome);
  return { recorded: recorded !== undefined, decision_id: recorded ?? a.decision_id, call_id: callId, outcome: a.outcome };
}

async function run(name: DecisionToolName, raw: unknown, store: EvidenceStore): Promise<Record<string, unknown>> {
  if (name === 'ewp_keys') {
    argumentsOf('ewp_keys', raw);
    return { keys: await listKeyStates(store) };
  }
  if (name === 'ewp_decision_outcome') return recordOutcome(store, argumentsOf('ewp_decision_outcome', raw));
  if (name === 'ewp_recovery_plan') {
    const a = argumentsOf('ewp_recovery_plan', raw);
    const plan = await planLedgerRecovery(store, a.since === undefined ? {} : { since: a.since });
    // The lists grow with the ledger: the held actions are paged (by their place in the plan, oldest first), the re-evaluated cut.
    const from = a.cursor === undefined ? 0 : Number(a.cursor);
    const held = boundPage(plan.held.slice(from), (h) => ({ decision_id: h.decision_id, decided: h.decided }));
    const reevaluated = boundPage(plan.reevaluated, (r) => ({ decision_id: r.decision_id, decided: r.decided }), { maxBytes: MAX_PAGE_BYTES / 4 });
    return {
      ...plan,
      held: held.items,
      held_total: plan.held.length,
      next_cursor: from + held.taken < plan.held.length ? String(from + held.taken) : null,
      reevaluated: reevaluated.items,
      reevaluated_total: plan.reevaluated.length,
    };
  }
  const a = argumentsOf('ewp_decisions', raw);
  if (a.decision_id !== undefined) {
    const history = await decisionHistory(store, a.decision_id);
    const shown = { ...history, verification: await verifyDecision(store, a.decision_id) };
    // One record can be as large as its writer made it: the reply is bounded like a page.
    return boundItem(shown, MAX_PAGE_BYTES, (s) => ({
      decision: { decision_id: s.decision.decision_id, chain_index: s.decision.chain_index },
      verification: { ok: s.verification.ok, status: s.verification.status },
    })).item as Record<string, unknown>;
  }
  const query = a.proposition_id === undefined ? {} : { proposition: a.proposition_id };
  // Read a few records at a time: the page's byte bound usually ends it long before the limit.
  const page = await readPage({
    read: (after, count) => listDecisions(store, { ...query, ...(after === undefined ? {} : { afterIndex: after }), limit: count }),
    cursorOf: (d) => d.chain_index,
    item: decisionSummary,
    summary: (d) => ({ decision_id: d.decision_id, chain_index: d.chain_index, decision: d.decision }),
    after: a.after_index,
    limit: a.limit ?? 100,
  });
  return { decisions: page.items, next_cursor: page.next_cursor, truncated: page.truncated };
}

/** Run one decision tool. Refusals (every `EwpError`) come back as `{ ok: false }`; anything else is a defect and is thrown. */
export async function runDecisionTool(
  name: DecisionToolName,
  raw: unknown,
  context: { store: EvidenceStore; ingest?: boolean },
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; refusal: EwpError }> {
  // The role is decided before the payload is looked at, as for the toolset's writes.
  if (WRITING.has(name) && context.ingest !== true) {
    return { ok: false, refusal: new ToolRefusal('EWP_REFUSE_INGEST_ROLE', `${name} writes to the ledger and needs the ingest role`) };
  }
  try {
    return { ok: true, value: await run(name, raw, context.store) };
  } catch (error) {
    if (EwpError.isInstance(error)) return { ok: false, refusal: error };
    throw error;
  }
}

/** The `tools/list` entries of the decision tools. */
export function decisionToolList(): Tool[] {
  return DECISION_TOOL_NAMES.map((name) => ({
    name,
    ...DESCRIPTIONS[name],
    inputSchema: jsonSchemaOf(DECISION_TOOL_INPUTS[name], 'input'),
    // The library's result objects; the fields are documented with @ewp/tools.
    outputSchema: jsonSchemaOf(z.looseObject({}), 'output'),
    annotations: {
      title: DESCRIPTIONS[name].title,
      readOnlyHint: !WRITING.has(name),
      destructiveHint: false,
      idempotentHint: !WRITING.has(name),
      openWorldHint: false,
    },
  }));
}
