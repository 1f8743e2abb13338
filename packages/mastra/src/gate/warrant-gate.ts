/**
 * The warrant gate for Mastra agents, with Mastra's own two mechanisms: a tool's `requireApproval`
 * (REQUIRE_CONFIRMATION suspends the run for `approveToolCall` / `declineToolCall`) and the agent's
 * `beforeToolCall` hook (DENY skips the call and hands the model a typed refusal). The decision is
 * the shared gate of `@ewp/tools`, made on the latest stored evidence when Mastra asks whether the
 * call needs approval and made again just before it runs. Every decision is recorded in the ledger,
 * and a tool gated by `gateMastraTool` executes through `runGuarded` (decided once more, run only on
 * MAY_ACT or an approval Mastra gave, once per tool call id (per decision without one), its outcome recorded).
 */
import { EwpError } from '@ewp/core';
import { decideGate, denyReason, type GateDecision, type GateOptions, type GateRefusal, gateOptionsForCall, gateRefusal, runGuarded } from '@ewp/tools';
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

/** The gate name on the decision records this binding writes (its gate and its `ewp_may_act` tool). */
export const RECORDING_GATE = 'mastra';

/**
 * The caller's gate options for one call: its records name this gate (unless the caller named one or
 * turned recording off) and carry Mastra's tool call id when there is one (unless the caller maps its
 * own), so the decisions made on one call read as one call in the ledger.
 */
function forCall<INPUT>(gate: GateOptions<INPUT>, callId: string | undefined): GateOptions<INPUT> {
  return gateOptionsForCall(gate, RECORDING_GATE, callId);
}

/** The gate for a question asked without the call id: decided, nothing recorded (`dryRun`). */
function askOnly<INPUT>(gate: GateOptions<INPUT>): GateOptions<INPUT> {
  return { ...gate, record: gate.record === false ? false : { ...gate.record, gate: gate.record?.gate ?? RECORDING_GATE, dryRun: true } };
}

/** The tool call id in what Mastra passes a tool's `execute` (`context.agent`) or the hooks (the call options). */
export function toolCallIdOf(context: unknown): string | undefined {
  if (context === null || typeof context !== 'object') return undefined;
  const c = context as { toolCallId?: unknown; agent?: { toolCallId?: unknown } };
  const id = c.agent?.toolCallId ?? c.toolCallId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function checkGate(options: GateOptions<unknown>, path: string): void {
  if (options === null || typeof options !== 'object') throw new EwpError('NOT_AN_OBJECT', 'a gate is an object { proposition, action, store }', { path });
  if (options.store === undefined || options.store === null) throw new EwpError('MISSING_FIELD', 'an EvidenceStore is required', { path: `${path}.store` });
}

// biome-ignore lint/suspicious/noExplicitAny: any Mastra tool, whatever its schemas.
type AnyMastraTool = Tool<any, any, any, any, any, any, any>;

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
 * @throws {DecisionError} from `execute` (and the approval and hook decisions) when the ledger
 * cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`: nothing runs), or when the decision, or the tool
 * call under another decision, was already executed once (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`).
 */
export function gateMastraTool<T extends AnyMastraTool, INPUT = unknown>(tool: T, gate: GateOptions<INPUT>): T {
  if (tool === null || typeof tool !== 'object' || typeof tool.execute !== 'function') {
    throw new EwpError('WRONG_TYPE', 'gateMastraTool wraps a Mastra tool with an execute function', { path: 'tool' });
  }
  checkGate(gate as GateOptions<unknown>, 'gate');
  const { needsApprovalFn: _resolved, requireApproval: own, execute: ownExecute, ...rest } = tool as T & { needsApprovalFn?: unknown };
  const requireApproval = async (input: unknown, ctx?: { requestContext?: Record<string, unknown> }): Promise<boolean> => {
    // Mastra does not pass the tool call id here (@mastra/core 1.71: only the arguments and the request
    // context), so this question is decided as a recorded decision would be and not appended: a record
    // with a made-up call id would read as another call. The call's records are the hook's and the
    // guarded run's, under its toolCallId.
    const d = await decideGate(askOnly(gate), input as INPUT);
    const answer = REQUIRE_APPROVAL[d.decision] ?? (typeof own === 'function' ? await own(input, ctx) : own === true);
    askedFor(gate as GateOptions<unknown>).set(inputKey(input), d.decision === 'REQUIRE_CONFIRMATION');
    return answer;
  };
  const execute = async (input: unknown, context?: unknown): Promise<unknown> => {
    const callId = toolCallIdOf(context);
    const run = await runGuarded(
      {
        ...forCall(gate, callId),
        confirm: () =>
          askedFor(gate as GateOptions<unknown>).get(inputKey(input)) === true
            ? { confirmed_by: `mastra approveToolCall of ${tool.id} call ${callId ?? '(no call id)'}` }
            : false,
      },
      input as INPUT,
      (i) => (ownExecute as (input: unknown, context?: unknown) => unknown)(i, context),
    );
    return run.status === 'executed' ? run.result : run.refusal;
  };
  const gated = Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as T, rest, { requireApproval, needsApprovalFn: requireApproval, execute });
  return gated;
}

/** A refusal the model reads instead of the tool's result. */
function refused(d: GateDecision, gate: GateRefusal['ewp_gate'], reason: string) {
  return { proceed: false as const, output: gateRefusal(d, gate, reason) };
}

/**
 * `hooks` for `new Agent({ hooks })` (or one `generate`/`stream` call): before a gated tool runs,
 * decide again; DENY skips the call and returns the `GateRefusal` as its output, and so does a
 * REQUIRE_CONFIRMATION no human was asked about (a tool gated only here, not by
 * {@link gateMastraTool}, is never asked). Tools without a gate, and `inner`'s hooks, run as before.
 */
export function warrantToolHooks(gates: WarrantGates, inner: ToolHooks = {}): ToolHooks {
  if (gates === null || typeof gates !== 'object') throw new EwpError('NOT_AN_OBJECT', 'gates: an object of gates by tool name', { path: 'gates' });
  for (const [name, gate] of Object.entries(gates)) checkGate(gate, `gates.${name}`);
  return {
    ...inner,
    beforeToolCall: async (context) => {
      const gate = Object.hasOwn(gates, context.toolName) ? gates[context.toolName] : undefined;
      if (gate !== undefined) {
        const d = await decideGate(forCall(gate, toolCallIdOf(context.context)), context.input);
        if (d.decision === 'DENY') return refused(d, 'DENY', denyReason(d));
        if (d.decision === 'REQUIRE_CONFIRMATION' && askedFor(gate).get(inputKey(context.input)) !== true) {
          return refused(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`);
        }
      }
      return inner.beforeToolCall?.(context);
    },
  };
}
