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
 * - `afterToolCallback` records the result of each observed tool the binding ran as an observation
 *   whose source is that tool (bound here, never named by the model).
 */
import { EwpError } from '@ewp/core';
import { type MemoryLedger, type MemorySource, memoryLedgerOf } from '@ewp/memory';
import {
  decideGate,
  denyReason,
  type GateDecision,
  type GateOptions,
  type GateRefusal,
  gateOptionsForCall,
  gateRefusal,
  ruleReason,
  runDecision,
} from '@ewp/tools';
import type { BaseTool, Context, SingleAfterToolCallback, SingleAgentCallback, SingleBeforeToolCallback } from '@google/adk';
import {
  type ConsequentialExpectation,
  consequentialActionAllowed,
  DEFAULT_ALLOW_MAX_AGE_SECONDS,
  GATE_STATE_KEY,
  GATE_STATE_VERSION,
  type GateState,
  serializeGateState,
} from './gate-state.js';

/** The gate name on the decision records this binding writes (`ewp decisions list` shows it). */
export const ADK_GATE = 'adk';

/** A tool call's arguments as ADK hands them to callbacks. */
export type AdkToolArgs = Record<string, unknown>;

/** Options of {@link warrantCallbacks}. */
export interface WarrantCallbacksOptions {
  /** The gated tools, by tool name: the gate of each (`proposition`, `action`, `store`, `now`, ...). */
  gates?: Readonly<Record<string, GateOptions<AdkToolArgs>>>;
  /**
   * The tools whose results are recorded as observations of that tool (`source: tool:<name>`,
   * origin `tool`), in the memory layer of `memory` (a `MemoryLedger`, or a store whose shared layer is used).
   */
  observe?: { tools: readonly string[]; memory: MemorySource; project?: string | null };
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

/** The gate's call id of one ADK function call: the invocation id and the function-call id. */
export function adkCallId(context: Pick<Context, 'invocationId' | 'functionCallId'>): string | undefined {
  return context.functionCallId === undefined ? undefined : `${context.invocationId}:${context.functionCallId}`;
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
  if (options === null || typeof options !== 'object') throw new EwpError('WRONG_TYPE', 'warrantCallbacks takes an options object', { path: 'options' });
  for (const [name, gate] of Object.entries(options.gates ?? {})) {
    if (gate === null || typeof gate !== 'object' || gate.store === undefined || gate.store === null) {
      throw new EwpError('MISSING_FIELD', 'an EvidenceStore is required', { path: `gates.${name}.store` });
    }
    // An ALLOW names the recorded decision the call runs under: an unrecorded gate has none.
    if (gate.record === false)
      throw new EwpError('WRONG_TYPE', 'the ADK gate records its decisions; record: false is not accepted', { path: `gates.${name}.record` });
  }
  if (options.observe !== undefined && !Array.isArray(options.observe.tools)) {
    throw new EwpError('WRONG_TYPE', 'a list of tool names', { path: 'observe.tools' });
  }
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
 * @throws {EwpError} `MISSING_FIELD` (`gates.<tool>.store`) or `WRONG_TYPE` for malformed options.
 * The callbacks throw `DecisionError` (`@ewp/tools`) when the ledger cannot record a decision or a claim (the
 * tool does not run), and a memory error when an observation cannot be recorded.
 *
 * @example
 * const callbacks = warrantCallbacks({ gates: { restart: { proposition: 'P-win', action: { action_id: 'restart', kind: 'restart', risk: 'high' }, store } } });
 * const agent = new LlmAgent({ name: 'ops', model, tools: [restart], ...callbacks });
 */
export function warrantCallbacks(options: WarrantCallbacksOptions): WarrantCallbacks {
  checkOptions(options);
  const gates = new Map(Object.entries(options.gates ?? {}));
  const observed = new Set(options.observe?.tools ?? []);
  const key = options.stateKey ?? GATE_STATE_KEY;
  const maxAgeSeconds = options.maxAllowAgeSeconds ?? DEFAULT_ALLOW_MAX_AGE_SECONDS;
  const memory: MemoryLedger | undefined = options.observe === undefined ? undefined : memoryLedgerOf(options.observe.memory, 'observe.memory');
  // Results of the calls this binding ran, for the after-tool callback (the same Context object reaches both).
  const ran = new WeakMap<Context, unknown>();

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
    const d = await decideGate(gateOptionsForCall(gate, ADK_GATE, callId), args);
    context.state.set(key, serializeGateState(verdictOf(d, tool.name, context, callId)));
    if (d.decision !== 'MAY_ACT') return refusalOf(d) as unknown as Record<string, unknown>;
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
    if (!check.allowed) return { ...(refusalOf(d, check.reason) as unknown as Record<string, unknown>), ewp_gate: 'DENY' };
    if (check.gate.decision_id !== d.decisionId) {
      const reason = `the ALLOW in state names decision ${check.gate.decision_id}, not ${d.decisionId}, the one just made on this call`;
      return { ...(refusalOf(d, reason) as unknown as Record<string, unknown>), ewp_gate: 'DENY' };
    }
    let result: unknown;
    let failed: { error: unknown } | undefined;
    const run = await runDecision(gate.store, check.gate.decision_id as string, args, async (input) => {
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
    if (run.status === 'refused') return refusalOf(d, run.reason) as unknown as Record<string, unknown>;
    if (run.status === 'executed') ran.set(context, result);
    return asResponse(result);
  }

  const beforeToolCallback: SingleBeforeToolCallback = async ({ tool, args, context }) => {
    const gate = gates.get(tool.name);
    if (gate !== undefined) return gated(tool, args, context, gate);
    if (!observed.has(tool.name)) return undefined;
    // An observed tool the gate does not hold: run here, so the observation is of what this binding ran.
    try {
      const result = await runTool(tool, args, context);
      ran.set(context, result);
      return asResponse(result);
    } catch (error) {
      return failure(error);
    }
  };

  const afterToolCallback: SingleAfterToolCallback = async ({ tool, context }) => {
    if (memory === undefined || !observed.has(tool.name) || !ran.has(context)) return undefined;
    const result = ran.get(context);
    ran.delete(context);
    await memory.store({
      text: JSON.stringify(asResponse(result)),
      class: 'observation',
      source: `tool:${tool.name}`,
      origin_type: 'tool',
      ...(options.observe?.project === undefined ? {} : { project: options.observe.project }),
    });
    return undefined;
  };

  return { beforeAgentCallback, beforeToolCallback, afterToolCallback };
}

function blockState(invocationId: string, tool: string | null, functionCallId: string | null, reason: string, at: string): GateState {
  return {
    v: GATE_STATE_VERSION,
    verdict: 'BLOCK',
    invocation_id: invocationId,
    function_call_id: functionCallId,
    tool,
    call_id: null,
    decision: null,
    decision_id: null,
    proposition_id: null,
    action_id: null,
    evaluated_at: at,
    reason,
  };
}

function verdictOf(d: GateDecision, tool: string, context: Context, callId: string | undefined): GateState {
  return {
    v: GATE_STATE_VERSION,
    verdict: d.decision === 'MAY_ACT' ? 'ALLOW' : 'BLOCK',
    invocation_id: context.invocationId,
    function_call_id: context.functionCallId ?? null,
    tool,
    call_id: callId ?? null,
    decision: d.decision,
    decision_id: d.decisionId,
    proposition_id: d.propositionId,
    action_id: d.action.action_id,
    evaluated_at: d.evaluatedAt,
    reason: d.decision === 'MAY_ACT' ? 'permitted' : reasonOf(d),
  };
}

function reasonOf(d: GateDecision): string {
  if (d.decision === 'DENY') return denyReason(d);
  return `${ruleReason(d)}; it needs a human confirmation before it runs, and this gate does not ask for one (ADK's tool confirmation cannot resume a call a callback answered)`;
}

/** The refusal a blocked call answers: the gate's decision and why. */
function refusalOf(d: GateDecision, reason?: string): GateRefusal {
  return gateRefusal(d, d.decision === 'REQUIRE_CONFIRMATION' ? 'REQUIRE_CONFIRMATION' : 'DENY', reason ?? reasonOf(d));
}
