import { type Action, checkFieldSize, parseInstant, type RiskPolicy, RISKS } from '@ewp/core';
import { missingViewMessage } from '@ewp/ledger';
import { DecisionError } from '../decisions/decision-error.js';
import { decide } from '../decisions/recording-gate.js';
import { claimDecision } from '../decisions/run-guarded.js';
import { ToolRefusal, toRefusal } from '../refusal.js';
import { loadStoredView, serverTime } from '../stored-view.js';
import { hasArgument, isAbsent, isObject, readId, type ToolArguments } from '../tool-arguments.js';
import type { ToolContext, ToolImplementation } from '../tool-context.js';

/** Largest accepted distance between a caller's `evaluated_at` and the server clock. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

const ACTION_POLICY = { policy_id: 'action-v0.1', version: '0.1.0' } as const;
/** `action.action_id` when the caller names none (it is not part of the result; `mayAct` needs text). */
export const DEFAULT_ACTION_ID = 'unnamed-action';
/** `action.kind` when the caller gives none. */
export const DEFAULT_ACTION_KIND = 'unspecified';
/** Why `ewp_may_act` answered without recording: the caller holds no writer's role. */
export const UNRECORDED_ANONYMOUS = 'anonymous caller: decisions are recorded for token holders (the ingest role)';
/** Why `ewp_may_act` answered without recording: the server's ledger is read-only. */
export const UNRECORDED_READ_ONLY = 'the ledger is read-only: the decision was answered, not recorded';
/** The gate name of `ewp_may_act`'s records when the binding names none. */
export const MAY_ACT_GATE = 'ewp_may_act';
const RISK_SET: ReadonlySet<string> = new Set(RISKS);
const RISK_FLAGS = ['high_requires_accepted', 'high_requires_no_open_conflict'] as const;

function readAction(args: ToolArguments): Action {
  const action = args.action;
  if (isAbsent(action) || (isObject(action) && Object.keys(action).length === 0)) {
    throw new ToolRefusal('EWP_REFUSE_MAY_ACT_WITHOUT_ACTION', 'action is required: {risk: low|medium|high, reversible: boolean}', { path: '$.action' });
  }
  if (hasArgument(args, 'warrant') || Object.hasOwn(args, 'warrant')) {
    throw new ToolRefusal('EWP_REFUSE_CLIENT_SUPPLIED_WARRANT', 'the server computes the warrant; do not supply one', { path: '$.warrant' });
  }
  if (hasArgument(args, 'view')) {
    throw new ToolRefusal('EWP_REFUSE_INLINE_VIEW_FOR_ACTION', 'actions are gated on the latest stored snapshot only, never on an inline view', {
      path: '$.view',
    });
  }
  if (!isObject(action)) throw new ToolRefusal('EWP_REFUSE_INVALID_ACTION', 'must be an object', { path: '$.action' });
  if (typeof action.risk !== 'string' || !RISK_SET.has(action.risk)) {
    throw new ToolRefusal('EWP_REFUSE_INVALID_ACTION', 'must be "low", "medium" or "high"', { path: '$.action.risk' });
  }
  if (typeof action.reversible !== 'boolean') throw new ToolRefusal('EWP_REFUSE_INVALID_ACTION', 'must be true or false', { path: '$.action.reversible' });
  // Both end up in a decision record of the append-only ledger: bounded by the field-limits table.
  const actionId = action.action_id;
  const kind = action.kind;
  checkFieldSize(actionId, '$.action.action_id', 'id');
  checkFieldSize(kind, '$.action.kind', 'kind');
  return {
    action_id: typeof actionId === 'string' || typeof actionId === 'number' ? String(actionId) : DEFAULT_ACTION_ID,
    kind: typeof kind === 'string' ? kind : DEFAULT_ACTION_KIND,
    risk: action.risk as Action['risk'],
    reversible: action.reversible,
  };
}

/**
 * The operator's policy (the context's, over the action-v0.1 identity), with a caller's
 * `risk_policy` flags on top; only the ingest role may pass one. Missing flags default to `true`.
 */
function readRiskPolicy(args: ToolArguments, ingest: boolean, operator: RiskPolicy | undefined): RiskPolicy {
  const base: RiskPolicy = { ...ACTION_POLICY, ...operator };
  const value = args.risk_policy;
  const empty = isAbsent(value) || (isObject(value) && Object.keys(value).length === 0);
  if (empty) return base;
  if (!ingest) throw new ToolRefusal('EWP_REFUSE_CLIENT_RISK_POLICY', 'only the operator (ingest role) may set it', { path: '$.risk_policy' });
  if (!isObject(value)) throw new ToolRefusal('EWP_REFUSE_CLIENT_RISK_POLICY', 'must be an object', { path: '$.risk_policy' });
  const policy: RiskPolicy = base;
  for (const flag of RISK_FLAGS) {
    const flagValue = value[flag];
    if (flagValue === undefined) continue;
    if (typeof flagValue !== 'boolean') throw new ToolRefusal('EWP_REFUSE_CLIENT_RISK_POLICY', 'must be a boolean', { path: `$.risk_policy.${flag}` });
    policy[flag] = flagValue;
  }
  return policy;
}

/** A caller's `evaluated_at` is a sanity check against the server clock, never the decision time. */
function checkSkew(args: ToolArguments, now: Date): void {
  const value = args.evaluated_at;
  if (isAbsent(value)) return;
  const instant = typeof value === 'string' ? parseInstant(value) : 'unparsable';
  if (typeof instant === 'string') {
    throw new ToolRefusal('EWP_REFUSE_EVALUATED_AT_SKEW', 'not an ISO 8601 instant (the decision uses the server clock)', { path: '$.evaluated_at' });
  }
  const callerMs = instant.seconds * 1000 + instant.micros / 1000;
  if (Math.abs(callerMs - now.getTime()) > MAX_CLOCK_SKEW_SECONDS * 1000) {
    throw new ToolRefusal('EWP_REFUSE_EVALUATED_AT_SKEW', `is more than ${MAX_CLOCK_SKEW_SECONDS} s from the server clock ${now.toISOString()}`, {
      path: '$.evaluated_at',
    });
  }
}

/**
 * A recorded MAY_ACT on a named call authorizes one execution of that call: it is claimed here, by
 * the library's one claim (as Claude Code's PreToolUse `allow` claims its call), and its outcome is
 * reported later (`ewp_decision_outcome`, under the same gate). A call already run under another decision is refused.
 */
async function claimCall(decisionId: string, action: Action, context: ToolContext): Promise<boolean> {
  let run: Awaited<ReturnType<typeof claimDecision>>;
  try {
    run = await claimDecision(context.store, decisionId, { action });
  } catch (error) {
    if (DecisionError.isInstance(error) && error.code === 'EWP_REFUSE_DECISION_NOT_EXECUTABLE') {
      throw new ToolRefusal('EWP_REFUSE_DECISION_NOT_EXECUTABLE', `${error.message}; do not act`, { path: '$.call_id', cause: error });
    }
    if (DecisionError.isInstance(error)) throw new ToolRefusal('EWP_REFUSE_LEDGER_UNAVAILABLE', error.message, { cause: error });
    throw toRefusal(error);
  }
  // Refused without an error: the evidence changed between the decision and its claim; nothing may run.
  if (run.status !== 'executed') throw new ToolRefusal('EWP_REFUSE_DECISION_NOT_EXECUTABLE', `${run.reason}; do not act`);
  return true;
}

/** `ewp_may_act`: gate an action on the latest stored snapshot at the server clock. */
export const mayActTool: ToolImplementation<'ewp_may_act'> = {
  async run(args, context) {
    const action = readAction(args);
    const riskPolicy = readRiskPolicy(args, context.ingest, context.riskPolicy);
    const propositionId = readId(args, 'proposition_id', true);
    const requestedViewId = readId(args, 'view_id');
    const now = context.now();
    checkSkew(args, now);
    const view = await loadStoredView(context.store, propositionId);
    if (requestedViewId !== undefined && requestedViewId !== view.view_id) {
      throw new ToolRefusal(
        'EWP_REFUSE_STALE_VIEW_FOR_ACTION',
        `${JSON.stringify(requestedViewId)} is not the latest snapshot (${JSON.stringify(view.view_id)})`,
        { path: '$.view_id' },
      );
    }
    const evaluatedAt = serverTime(() => now);
    // The binding's gate and call id (an MCP server's request id); the caller's own id of the call wins.
    const gate = context.call?.gate ?? MAY_ACT_GATE;
    const callId = readId(args, 'call_id') ?? context.call?.callId;
    let made: Awaited<ReturnType<typeof decide>>;
    try {
      // The one recording gate: mayAct bounded by the recovery gate, recorded in the ledger. A server
      // that opened its ledger read-only still decides (the recovery gate only reads), unrecorded.
      // Recording is a write: only a caller with the ingest role (a token holder, a principal) adds a
      // record; anyone else gets the same decision and the ledger does not grow by their calls.
      made = await decide({
        store: context.store,
        propositions: [propositionId],
        action,
        riskPolicy,
        evaluatedAt,
        views: new Map([[propositionId, view]]),
        callId,
        record: context.ingest ? { gate, readOnlyLedger: 'unrecorded' } : { gate, readOnlyLedger: 'unrecorded', dryRun: true },
      });
    } catch (error) {
      if (DecisionError.isInstance(error)) throw new ToolRefusal('EWP_REFUSE_LEDGER_UNAVAILABLE', error.message, { cause: error });
      throw toRefusal(error);
    }
    const claimed =
      made.decision_id !== null && callId !== undefined && made.record.decision === 'MAY_ACT' ? await claimCall(made.decision_id, action, context) : undefined;
    const w = made.warrants.get(propositionId);
    if (w === undefined) throw new ToolRefusal('EWP_REFUSE_MISSING_VIEW', missingViewMessage(propositionId));
    const { record } = made;
    return {
      decision: record.decision,
      proposition_id: w.proposition_id,
      view_id: w.view_id,
      evaluated_at: evaluatedAt,
      acceptance: w.warrant.acceptance,
      conflict: w.warrant.conflict,
      verification: w.warrant.verification,
      currency: w.warrant.currency,
      sufficiency: w.warrant.sufficiency,
      risk_policy: { policy_id: record.risk_policy.policy_id, version: record.risk_policy.version },
      decision_id: made.decision_id,
      recorded: made.decision_id !== null,
      ...(made.decision_id !== null ? { call_id: record.call_id } : { why: context.ingest ? UNRECORDED_READ_ONLY : UNRECORDED_ANONYMOUS }),
      ...(claimed === undefined ? {} : { claimed }),
      rule: record.rule,
      held_until_reevaluated: record.recovery !== null && record.recovery.decision !== 'MAY_ACT' ? record.recovery.requirements : [],
    };
  },
};
