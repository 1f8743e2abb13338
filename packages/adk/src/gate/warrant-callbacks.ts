/**
 * `warrantCallbacks()`: the warrant gate in ADK's own callbacks.
 *
 * - `beforeAgentCallback` opens every invocation with a BLOCK verdict in callback state, so no ALLOW of
 *   an earlier invocation outlives it.
 * - `beforeToolCallback` decides each gated call with the shared gate of `@ewp/tools` (recorded under
 *   the gate name `adk` with `<invocation id>:<function-call id>` as its call id), writes the verdict to
 *   callback state, and runs the tool only on an explicit ALLOW read back from that state
 *   ({@link consequentialActionAllowed}); the run is `runDecision` of the ALLOW's recorded decision,
 *   so the execution is claimed once per decision and once per call and recorded succeeded or failed.
 *   A blocked call returns the gate's refusal as the tool's response: ADK never calls the tool.
 * - `afterToolCallback` records the result of each observed tool the binding ran as an observation for
 *   or against its claim, whose source is that tool (bound here, never named by the model).
 *
 * The same gate and observation on one tool, without callbacks: `gate(tool, options)` and
 * `observe(tool, options)`.
 */
import { InvalidArgumentError } from '@ewp/core';
import {
  checkGateOptions,
  checkObserveOptions,
  decideGate,
  denyReason,
  type GateDecision,
  type GateOptions,
  type GateRefusal,
  gateRefusal,
  type ObserveOptions,
  observeResult,
  ruleReason,
  runDecision,
} from '@ewp/tools';
import type { BaseTool, Context, SingleAfterToolCallback, SingleAgentCallback, SingleBeforeToolCallback } from '@google/adk';
import { ADK_GATE, adkCallId } from './adk-call.js';
import type { AdkToolArgs } from './gate-tool.js';
import {
  type ConsequentialExpectation,
  consequentialActionAllowed,
  DEFAULT_ALLOW_MAX_AGE_SECONDS,
  GATE_STATE_KEY,
  GATE_STATE_VERSION,
  type GateState,
  serializeGateState,
} from './gate-state.js';

/** Options of {@link warrantCallbacks}. */
export interface WarrantCallbacksOptions {
  /** The gated tools, by tool name: the gate of each (`store`, `claim` or `proposition`, `action`, `now`, ...). */
  gates?: Readonly<Record<string, GateOptions<AdkToolArgs>>>;
  /**
   * The observed tools, by tool name: each result is recorded as an observation for or against the
   * claim (`store`, `claim`, `supports`, ...), with the tool as its source (`tool:<name>`).
   */
  observe?: Readonly<Record<string, ObserveOptions<AdkToolArgs>>>;
  /** The state key of the verdict. Default {@link GATE_STATE_KEY}. */
  stateKey?: string;
  /** Largest age of an ALLOW when the tool runs, in seconds. Default {@link DEFAULT_ALLOW_MAX_AGE_SECONDS}. */
  maxAllowAgeSeconds?: number;
}

/** The callbacks to put in an `LlmAgent`'s config. */
export interface WarrantCallbacks {
  beforeAgentCallback: SingleAgentCallback;
  beforeToolCallback: SingleBeforeToolCallback;
  afterToolCallback: SingleAfterToolCallback;
}

/** A result as ADK puts it in a function response (an object; a bare value under `result`, a list under `results`). */
function asResponse(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { results: value };
  if (typeof value !== 'object' || value === null) return { result: value ?? null };
  return value as Record<string, unknown>;
}

/** A tool failure as ADK itself reports one to the model. */
function failure(error: unknown): Record<string, unknown> {
  return { error: error instanceof Error ? error.message : String(error) };
}

function checkOptions(options: WarrantCallbacksOptions): void {
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('options', 'must be an object { gates?, observe?, ... }');
  for (const [name, gate] of Object.entries(options.gates ?? {})) {
    checkGateOptions(gate, ADK_GATE, `gates.${name}`);
    // An ALLOW names the recorded decision the call runs under: an unrecorded gate has none.
    if (gate.record === false) throw new InvalidArgumentError(`gates.${name}.record`, 'the ADK gate records its decisions; record: false is not accepted');
  }
  for (const [name, observed] of Object.entries(options.observe ?? {})) checkObserveOptions(observed, `observe.${name}`);
}

/**
 * The warrant gate and the evidence capture as ADK callbacks. Spread them into an `LlmAgent`'s config
 * (`new LlmAgent({ ..., ...warrantCallbacks({ gates, observe }) })`), or put each first in a list of
 * callbacks: ADK stops at the first callback that answers.
 *
 * A gated or observed tool is run by the before-tool callback itself (ADK skips its own call when a
 * callback answers), so the binding sees every execution it records: a tool that throws answers
 * `{ error: message }`, ADK's own shape, and its failure is recorded. REQUIRE_CONFIRMATION is blocked:
 * ADK 2.0's tool confirmation resumes a call only when its function response was emitted, and a
 * confirmation requested from a callback is emitted without it, so the resumed call would be refused.
 *
 * @throws {InvalidArgumentError} for malformed options, naming the field (`gates.<tool>.store`, `observe.<tool>.claim`, ...).
 * The callbacks throw `DecisionError` (`@ewp/tools`) when the ledger cannot record a decision or a claim (the
 * tool does not run), and the typed error of an observation that cannot be recorded.
 *
 * @example
 * const callbacks = warrantCallbacks({
 *   observe: { check_health: { store, claim: 'server01 is healthy', supports: (r) => r.status === 'ok' } },
 *   gates: { restart: { store, claim: 'server01 is healthy', action: { risk: 'low' } } },
 * });
 * const agent = new LlmAgent({ name: 'ops', model, tools: [restart], ...callbacks });
 */
export function warrantCallbacks(options: WarrantCallbacksOptions): WarrantCallbacks {
  checkOptions(options);
  const gates = new Map(Object.entries(options.gates ?? {}));
  const observed = new Map(Object.entries(options.observe ?? {}));
  const key = options.stateKey ?? GATE_STATE_KEY;
  const maxAgeSeconds = options.maxAllowAgeSeconds ?? DEFAULT_ALLOW_MAX_AGE_SECONDS;
  // Results of the calls this binding ran, for the after-tool callback (the same Context object reaches both).
  const ran = new WeakMap<Context, { args: AdkToolArgs; result: unknown }>();

  const beforeAgentCallback: SingleAgentCallback = (context) => {
    context.state.set(
      key,
      serializeGateState(blockState(context.invocationId, null, null, 'no gate decision in this invocation yet', new Date().toISOString())),
    );
    return undefined;
  };

  async function runTool(tool: BaseTool, args: AdkToolArgs, context: Context): Promise<unknown> {
    return tool.runAsync({ args, toolContext: context });
  }

  async function gated(tool: BaseTool, args: AdkToolArgs, context: Context, gate: GateOptions<AdkToolArgs>): Promise<Record<string, unknown>> {
    const callId = adkCallId(context);
    const d = await decideGate(gate, args, { gate: ADK_GATE, tool: tool.name, callId });
    context.state.set(key, serializeGateState(verdictOf(d, tool.name, context)));
    if (d.decision !== 'MAY_ACT') return refusalOf(d);
    // The state is the authority: what runs is the decision the ALLOW read back from it names.
    const expect: ConsequentialExpectation = {
      invocationId: context.invocationId,
      tool: tool.name,
      key,
      maxAgeSeconds,
      ...(gate.now ? { now: gate.now } : {}),
    };
    if (context.functionCallId !== undefined) expect.functionCallId = context.functionCallId;
    const check = consequentialActionAllowed(context.state, expect);
    if (!check.allowed) return { ...refusalOf(d, check.reason), ewpGate: 'DENY' };
    if (check.gate.decisionId !== d.decisionId) {
      const reason = `the ALLOW in state names decision ${check.gate.decisionId}, not ${d.decisionId}, the one just made on this call`;
      return { ...refusalOf(d, reason), ewpGate: 'DENY' };
    }
    let result: unknown;
    let failed: { error: unknown } | undefined;
    const run = await runDecision(gate.store, check.gate.decisionId as string, args, async (input) => {
      try {
        result = await runTool(tool, input, context);
      } catch (error) {
        failed = { error };
        throw error;
      }
      return result;
    }).catch((error: unknown) => {
      // The tool's own failure (recorded as failed by runDecision) is its response; a ledger refusal is not.
      if (failed === undefined) throw error;
      return undefined;
    });
    if (run === undefined) return failure((failed as { error: unknown }).error);
    if (run.status === 'refused') return refusalOf(d, run.reason);
    if (run.status === 'executed') ran.set(context, { args, result });
    return asResponse(result);
  }

  const beforeToolCallback: SingleBeforeToolCallback = async ({ tool, args, context }) => {
    const gate = gates.get(tool.name);
    if (gate !== undefined) return gated(tool, args, context, gate);
    if (!observed.has(tool.name)) return undefined;
    // An observed tool the gate does not hold: run here, so the observation is of what this binding ran.
    try {
      const result = await runTool(tool, args, context);
      ran.set(context, { args, result });
      return asResponse(result);
    } catch (error) {
      return failure(error);
    }
  };

  const afterToolCallback: SingleAfterToolCallback = async ({ tool, context }) => {
    const observe = observed.get(tool.name);
    const call = ran.get(context);
    if (observe === undefined || call === undefined) return undefined;
    ran.delete(context);
    await observeResult(observe, tool.name, call.args, call.result);
    return undefined;
  };

  return { beforeAgentCallback, beforeToolCallback, afterToolCallback };
}

function blockState(invocationId: string, tool: string | null, functionCallId: string | null, reason: string, at: string): GateState {
  return {
    v: GATE_STATE_VERSION,
    verdict: 'BLOCK',
    invocationId,
    functionCallId,
    tool,
    callId: null,
    decision: null,
    decisionId: null,
    propositionId: null,
    actionId: null,
    evaluatedAt: at,
    reason,
  };
}

function verdictOf(d: GateDecision, tool: string, context: Context): GateState {
  return {
    v: GATE_STATE_VERSION,
    verdict: d.decision === 'MAY_ACT' ? 'ALLOW' : 'BLOCK',
    invocationId: context.invocationId,
    functionCallId: context.functionCallId ?? null,
    tool,
    // The call id the decision was recorded under (the options may map their own).
    callId: d.record.call_id,
    decision: d.decision,
    decisionId: d.decisionId,
    propositionId: d.propositionId,
    actionId: d.action.id,
    evaluatedAt: d.evaluatedAt,
    reason: d.decision === 'MAY_ACT' ? 'permitted' : reasonOf(d),
  };
}

function reasonOf(d: GateDecision): string {
  if (d.decision === 'DENY') return denyReason(d);
  return `${ruleReason(d)}; it needs a human confirmation before it runs, and this gate does not ask for one (ADK's tool confirmation cannot resume a call a callback answered)`;
}

/** The refusal a blocked call answers (a function response object): the gate's decision and why. */
function refusalOf(d: GateDecision, reason?: string): GateRefusal & Record<string, unknown> {
  return { ...gateRefusal(d, d.decision === 'REQUIRE_CONFIRMATION' ? 'REQUIRE_CONFIRMATION' : 'DENY', reason ?? reasonOf(d)) };
}
