/**
 * The warrant gate for Mastra agents, with Mastra's own two mechanisms: a tool's `requireApproval`
 * (REQUIRE_CONFIRMATION suspends the run for `approveToolCall` / `declineToolCall`) and the agent's
 * `beforeToolCall` hook (DENY skips the call and hands the model a typed refusal). The decision is
 * the shared gate of `@ewp/tools`, made on the latest stored evidence when Mastra asks whether the
 * call needs approval and made again just before it runs. Every decision is recorded in the ledger,
 * and a tool gated by `gate()` executes through `runGuarded` (decided once more, run only on
 * MAY_ACT or an approval Mastra gave, once per tool call id (per decision without one), its outcome recorded).
 */
import { type GateName, InvalidArgumentError } from '@ewp/core';
import {
  checkGateOptions,
  decideGate,
  denyReason,
  type GateCall,
  type GateDecision,
  type GateOptions,
  type GateRefusal,
  gateRefusal,
  runGuarded,
} from '@ewp/tools';
import type { Tool, ToolHooks } from '@mastra/core/tools';

/** The gates of an agent, by the tool name the model calls. */
// biome-ignore lint/suspicious/noExplicitAny: each gate reads its own tool's input.
export type WarrantGates = Record<string, GateOptions<any>>;

/**
 * What Mastra is asked when a call is proposed: the decision in Mastra's words. `undefined` hands the
 * call to the inner tool's own `requireApproval`.
 */
const REQUIRE_APPROVAL: Record<GateDecision['decision'], boolean | undefined> = {
  MAY_ACT: undefined,
  REQUIRE_CONFIRMATION: true,
  // Not an approval question: the hook refuses it before it runs.
  DENY: false,
};

/**
 * Whether the gate's approval function last answered "ask a human" for an input, per gate. Mastra
 * asks it again when an approved call resumes, just before `beforeToolCall`, so the hook lets a
 * REQUIRE_CONFIRMATION call run only when a human was asked (and, since it runs, approved).
 */
const asked = new WeakMap<GateOptions<unknown>, Map<string, boolean>>();

function askedFor(options: GateOptions<unknown>): Map<string, boolean> {
  let map = asked.get(options);
  if (map === undefined) {
    map = new Map();
    asked.set(options, map);
  }
  return map;
}

const inputKey = (input: unknown): string => JSON.stringify(input) ?? 'undefined';

/** The gate name the decisions of `gate()`, `warrantToolHooks()` and `ewpTools()`' `ewp_may_act` are recorded under. */
export const GATE = 'mastra' satisfies GateName;

/** One call of a gated tool: this binding's gate, the tool's id, Mastra's tool call id. */
const callOf = (tool: string, callId: string | undefined): GateCall => ({ gate: GATE, tool, callId });

/** The gate for a question asked without the call id: decided, nothing recorded (`dryRun`). */
function askOnly<INPUT>(gate: GateOptions<INPUT>): GateOptions<INPUT> {
  return { ...gate, record: gate.record === false ? false : { ...gate.record, dryRun: true } };
}

/** The tool call id in what Mastra passes a tool's `execute` (`context.agent`) or the hooks (the call options). */
export function toolCallIdOf(context: unknown): string | undefined {
  if (context === null || typeof context !== 'object') return undefined;
  const c = context as { toolCallId?: unknown; agent?: { toolCallId?: unknown } };
  const id = c.agent?.toolCallId ?? c.toolCallId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: any Mastra tool, whatever its schemas.
export type AnyMastraTool = Tool<any, any, any, any, any, any, any>;

/** A Mastra tool with an `execute`. @throws {InvalidArgumentError} `tool` for anything else. */
export function checkedMastraTool<T>(tool: T, what: string): T & AnyMastraTool {
  const t = tool as { execute?: unknown; id?: unknown } | null;
  if (t === null || typeof t !== 'object' || typeof t.execute !== 'function' || typeof t.id !== 'string') {
    throw new InvalidArgumentError('tool', `${what}() wraps a Mastra tool (createTool) with an id and an execute function`);
  }
  return tool as T & AnyMastraTool;
}

/**
 * The same tool with `requireApproval` decided by the warrant: REQUIRE_CONFIRMATION asks a human,
 * MAY_ACT keeps the tool's own `requireApproval`. Pair it with {@link warrantToolHooks} over the
 * same gate object, which refuses DENY.
 *
 * Its `execute` runs the tool's own through `runGuarded` of `@ewp/tools`: decided once more on the
 * evidence of that moment and recorded; run only on MAY_ACT, or on REQUIRE_CONFIRMATION when this gate
 * asked a human for this input and Mastra is running the call (it runs an approval-gated call only
 * after `approveToolCall`), that approval recorded as the decision's confirmation; the one execution
 * of the decision claimed in the ledger first, and its outcome recorded. Read them back with
 * `listDecisions` / `decisionHistory` of `@ewp/tools`, or `ewp decisions list`. A refusal there is the
 * `GateRefusal` the model reads, as from the hook.
 *
 * @example
 * const gates = { restart: { claim: 'server01 is healthy', store } };
 * const agent = new Agent({ ..., tools: { restart: gate(restart, gates.restart) }, hooks: warrantToolHooks(gates) });
 *
 * @throws {InvalidArgumentError} at wrap time: not a Mastra tool with an execute (`tool`), malformed
 * gate options (the field, see `checkGateOptions`).
 * @throws {DecisionError} from `execute` (and the approval and hook decisions) when the ledger
 * cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`: nothing runs), or when the decision, or the tool
 * call under another decision, was already executed once (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`).
 */
export function gate<T extends AnyMastraTool, INPUT = unknown>(tool: T, options: GateOptions<INPUT>): T {
  checkedMastraTool(tool, 'gate');
  checkGateOptions(options, GATE);
  const { needsApprovalFn: _resolved, requireApproval: own, execute: ownExecute, ...rest } = tool as T & { needsApprovalFn?: unknown };
  const requireApproval = async (input: unknown, ctx?: { requestContext?: Record<string, unknown> }): Promise<boolean> => {
    // Mastra does not pass the tool call id here (@mastra/core 1.71: only the arguments and the request
    // context), so this question is decided as a recorded decision would be and not appended: a record
    // with a made-up call id would read as another call. The call's records are the hook's and the
    // guarded run's, under its toolCallId.
    const d = await decideGate(askOnly(options), input as INPUT, callOf(tool.id, undefined));
    const answer = REQUIRE_APPROVAL[d.decision] ?? (typeof own === 'function' ? await own(input, ctx) : own === true);
    askedFor(options as GateOptions<unknown>).set(inputKey(input), d.decision === 'REQUIRE_CONFIRMATION');
    return answer;
  };
  const execute = async (input: unknown, context?: unknown): Promise<unknown> => {
    const callId = toolCallIdOf(context);
    const run = await runGuarded(
      {
        ...options,
        confirm: () =>
          askedFor(options as GateOptions<unknown>).get(inputKey(input)) === true
            ? { confirmedBy: `mastra approveToolCall of ${tool.id} call ${callId ?? '(no call id)'}` }
            : false,
      },
      input as INPUT,
      callOf(tool.id, callId),
      (i) => (ownExecute as (input: unknown, context?: unknown) => unknown)(i, context),
    );
    return run.status === 'executed' ? run.result : run.refusal;
  };
  const gated = Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as T, rest, { requireApproval, needsApprovalFn: requireApproval, execute });
  return gated;
}

/** A refusal the model reads instead of the tool's result. */
function refused(d: GateDecision, gate: GateRefusal['ewpGate'], reason: string) {
  return { proceed: false as const, output: gateRefusal(d, gate, reason) };
}

/**
 * `hooks` for `new Agent({ hooks })` (or one `generate`/`stream` call): before a gated tool runs,
 * decide again; DENY skips the call and returns the `GateRefusal` as its output, and so does a
 * REQUIRE_CONFIRMATION no human was asked about (a tool gated only here, not by
 * {@link gate}, is never asked). Tools without a gate, and `inner`'s hooks, run as before.
 */
export function warrantToolHooks(gates: WarrantGates, inner: ToolHooks = {}): ToolHooks {
  if (gates === null || typeof gates !== 'object') throw new InvalidArgumentError('gates', 'an object of gate options by tool name');
  for (const [name, options] of Object.entries(gates)) checkGateOptions(options, GATE, `gates.${name}`);
  return {
    ...inner,
    beforeToolCall: async (context) => {
      const gate = Object.hasOwn(gates, context.toolName) ? gates[context.toolName] : undefined;
      if (gate !== undefined) {
        const d = await decideGate(gate, context.input, callOf(context.toolName, toolCallIdOf(context.context)));
        if (d.decision === 'DENY') return refused(d, 'DENY', denyReason(d));
        if (d.decision === 'REQUIRE_CONFIRMATION' && askedFor(gate).get(inputKey(context.input)) !== true) {
          return refused(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`);
        }
      }
      return inner.beforeToolCall?.(context);
    },
  };
}
