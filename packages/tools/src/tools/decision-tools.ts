/**
 * How the decision tools run (docs/spec/receipts.md §12): `ewp_decisions` lists the gate decisions
 * recorded in the ledger, or shows one with its confirmation, execution and outcome and its offline
 * verification; `ewp_recovery_plan` says which recorded actions are held because their evidence
 * changed, and what to re-evaluate; `ewp_keys` lists the signing keys' states. These only read.
 * `ewp_decision_outcome` records how a call `ewp_may_act` claimed ended (a write, for the ingest role),
 * for a decision recorded under the calling binding's own gate. The library functions are the ones the CLI calls.
 */
import type { ToolOutput } from '@ewp/spec/tools';
import { decisionHistory, decisionSummary, listDecisions, verifyDecision } from '../decisions/decision-store.js';
import { listKeyStates } from '../decisions/key-states.js';
import { planLedgerRecovery } from '../decisions/ledger-recovery-plan.js';
import { recordCallOutcome } from '../decisions/run-guarded.js';
import { ToolRefusal } from '../refusal.js';
import { boundItem, boundPage, MAX_PAGE_BYTES, readPage } from '../reply-page.js';
import type { ToolContext } from '../tool-context.js';
import { MAY_ACT_GATE } from './may-act.js';
import { schemaTool } from './schema-tool.js';

/**
 * The gate this call's `ewp_may_act` records under and whose decisions its `ewp_decision_outcome`
 * reports on: the named call's gate, else the binding's (`context.gate`), else `ewp_may_act`'s own.
 */
export function callGate(context: ToolContext): string {
  return context.call?.gate ?? context.gate ?? MAY_ACT_GATE;
}

/** The decision tools' implementations. */
export const DECISION_TOOL_IMPLEMENTATIONS = {
  ewp_decisions: schemaTool('ewp_decisions', async (a, { store }) => {
    if (a.decision_id !== undefined) {
      const history = await decisionHistory(store, a.decision_id);
      const shown = { ...history, verification: await verifyDecision(store, a.decision_id) };
      // One record can be as large as its writer made it: the reply is bounded like a page (a shortened one keeps its decision and verification).
      return boundItem(shown, MAX_PAGE_BYTES, (s) => ({
        decision: { decision_id: s.decision.decision_id, chain_index: s.decision.chain_index },
        verification: { ok: s.verification.ok, status: s.verification.status },
      })).item as ToolOutput<'ewp_decisions'>;
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
  }),
  ewp_recovery_plan: schemaTool('ewp_recovery_plan', async (a, { store }) => {
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
  }),
  ewp_keys: schemaTool('ewp_keys', async (_a, { store }) => ({ keys: await listKeyStates(store) })),
  ewp_decision_outcome: schemaTool('ewp_decision_outcome', async (a, context) => {
    const history = await decisionHistory(context.store, a.decision_id);
    const { gate, call_id: callId } = history.decision.record;
    const at = { path: '$.decision_id' };
    // A binding reports only on its own gate's decisions: those its agents' ewp_may_act recorded and claimed.
    const own = callGate(context);
    if (gate !== own) {
      throw new ToolRefusal(
        'EWP_REFUSE_INVALID_ARGUMENTS',
        `decision ${a.decision_id} was recorded by gate ${JSON.stringify(gate)}, not by this binding's gate ${JSON.stringify(own)}`,
        at,
      );
    }
    if (a.call_id !== undefined && a.call_id !== callId) {
      throw new ToolRefusal(
        'EWP_REFUSE_INVALID_ARGUMENTS',
        `decision ${a.decision_id} names call ${JSON.stringify(callId)}, not ${JSON.stringify(a.call_id)}`,
        {
          path: '$.call_id',
        },
      );
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
    const recorded = await recordCallOutcome(context.store, gate, callId, outcome);
    return { recorded: recorded !== undefined, decision_id: recorded ?? a.decision_id, call_id: callId, outcome: a.outcome };
  }),
} as const;
