/**
 * One Claude tool call through the shared warrant gate, answered in Claude's permission vocabulary
 * (`allow` / `ask` / `deny`, or no answer for an unmapped tool under `"unmapped": "pass"`). The hook
 * command and the SDK callbacks all call this; nothing here is specific to how the answer travels.
 * Decisions are recorded under the gate `claude-code` with Claude's `tool_use_id`; an `allow` claims
 * the call's one execution in the ledger (Claude Code runs the tool itself, so its outcome is recorded
 * from the PostToolUse / PostToolUseFailure report, {@link recordToolUseOutcome}, which also records
 * the result as an observation on the claims the mapping's `observe` rules name).
 */
import type { Decision } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import {
  type Confirmation,
  checkGateOptions,
  checkObserveOptions,
  claimDecision,
  decideGate,
  type GateDecision,
  type GateOptions,
  listDecisions,
  type RecordedObservation,
  recordCallOutcome,
  observeResult,
  recoveryReason,
  resolveGate,
  ruleReason,
} from '@ewp/tools/gate';
import { type MappedCall, mapToolCall, observeToolCall, type ToolMapping } from './tool-mapping.js';

/** The gate name on the decision records this binding writes (`ewp decisions list` shows it). */
export const CLAUDE_CODE_GATE = 'claude-code';

/** Claude's permission decisions, as the PreToolUse hook spells them. */
export type ClaudePermissionDecision = 'allow' | 'ask' | 'deny';

/** The answer for one call: a decision with its reason, or `undefined` for no decision (Claude Code's own rules apply). */
export interface ClaudePermission {
  decision: ClaudePermissionDecision | undefined;
  reason: string;
}

/** What every entry point needs: the mapping, the ledger, and optionally a clock. */
export interface ClaudeGateOptions {
  mapping: ToolMapping;
  store: EvidenceStore;
  /** Clock for the decision time. Default `() => new Date()`. */
  now?: () => Date;
}

/** The call being decided: Claude's tool use id, and who confirms a REQUIRE_CONFIRMATION here. */
export interface ClaudeToolCall {
  /** Claude's `tool_use_id` (the SDK's `toolUseID`): the call id of the records and of the execution claim. */
  toolUseId?: string | undefined;
  /**
   * Asks a human now (the SDK's `canUseTool`); a `true` is recorded as the confirmation and the call
   * claimed. Without it, REQUIRE_CONFIRMATION answers `ask` (Claude Code's own prompt), and the call
   * is confirmed and claimed when Claude Code reports it ran.
   */
  confirm?: (reason: string) => boolean | Promise<boolean>;
}

/** The gate's decision in Claude's vocabulary: the one mapping of this binding. */
const PERMISSION: Record<Decision, ClaudePermissionDecision> = { MAY_ACT: 'allow', REQUIRE_CONFIRMATION: 'ask', DENY: 'deny' };

/** The gate options of a mapped call: the one place this binding builds them (checked by {@link toolCallPermission}). */
function gateOptionsOf(mapped: Extract<MappedCall, { kind: 'gated' }>, options: ClaudeGateOptions): GateOptions<unknown> {
  return {
    store: options.store,
    ...mapped.subject,
    action: mapped.action,
    project: options.mapping.project,
    ...(options.mapping.riskPolicy === undefined ? {} : { riskPolicy: options.mapping.riskPolicy }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
}

/**
 * The answer while nothing is recorded for the call's claim: what to record, and how, in Claude Code
 * (an `observe` rule, or `ewp observe` by hand; `ewp ingest` for a proposition id).
 */
export function noEvidenceReason(d: GateDecision, policy: 'ask' | 'deny'): string {
  const what = d.claim === undefined ? d.propositionId : `"${d.claim}" (${d.propositionId})`;
  const then = policy === 'ask' ? 'so a human decides (no_evidence: ask)' : 'so nothing warrants this call (no_evidence: deny)';
  const how =
    d.claim === undefined
      ? `record evidence for ${d.propositionId}: a view with a check, stored with \`ewp ingest view.json --db ewp.sqlite\``
      : `record evidence for it: an "observe" rule in the tool mapping naming the tool whose result checks it (its PostToolUse report then lands as an observation), ` +
        `or by hand \`ewp observe --claim ${JSON.stringify(d.claim)} --tool <the checking tool> --supports --db ewp.sqlite\``;
  return `EWP: no evidence is recorded for ${what} yet, ${then}. To let the gate decide, ${how}; see the @ewp/claude-code README`;
}

/** Decide one tool call on the latest stored evidence. A ledger that cannot be read or written denies (fail closed). */
export async function toolCallPermission(
  toolName: string,
  toolInput: unknown,
  options: ClaudeGateOptions,
  call: ClaudeToolCall = {},
): Promise<ClaudePermission> {
  const mapped = mapToolCall(options.mapping, toolName, toolInput);
  if (mapped.kind === 'unfillable') return { decision: 'deny', reason: `EWP: ${mapped.reason}; nothing to decide on, so the call is refused` };
  if (mapped.kind === 'unmapped') {
    const decision = options.mapping.unmapped === 'pass' ? undefined : options.mapping.unmapped;
    return { decision, reason: `EWP: no rule of the tool mapping matches ${toolName} (unmapped: ${options.mapping.unmapped})` };
  }
  try {
    const gate = gateOptionsOf(mapped, options);
    checkGateOptions(gate, CLAUDE_CODE_GATE);
    const d = await decideGate(gate, toolInput, { gate: CLAUDE_CODE_GATE, tool: toolName, callId: call.toolUseId });
    const reason = `EWP ${d.decision}: ${ruleReason(d)}`;
    // Nothing recorded yet (not a held or refuted call): a human decides under `"no_evidence": "ask"`,
    // the refusal stands under `deny`; either way the reason says how to record evidence.
    if (d.decision === 'DENY' && d.warrant === undefined && recoveryReason(d) === undefined) {
      const policy = options.mapping.noEvidence;
      return { decision: policy, reason: noEvidenceReason(d, policy) };
    }
    if (d.decision === 'DENY') return { decision: 'deny', reason };
    let confirmation: Confirmation | undefined;
    if (d.decision === 'REQUIRE_CONFIRMATION') {
      if (call.confirm === undefined) return { decision: PERMISSION[d.decision], reason };
      if (!(await call.confirm(reason))) return { decision: 'deny', reason: `${reason}; not confirmed` };
      confirmation = { confirmedBy: `claude-code canUseTool confirm of ${call.toolUseId ?? toolName}` };
    }
    const claimed = await claimDecision(options.store, d.decisionId as string, toolInput, confirmation === undefined ? {} : { confirmation });
    if (claimed.status !== 'executed') return { decision: 'deny', reason: `EWP: ${claimed.reason}; the call is refused` };
    return { decision: 'allow', reason };
  } catch (error) {
    return {
      decision: 'deny',
      reason: `EWP: the warrant could not be decided (${error instanceof Error ? error.message : String(error)}); the call is refused`,
    };
  }
}

/** What Claude Code reports after a call ran: PostToolUse (succeeded, with its response) or PostToolUseFailure (failed, with its error). */
export interface ToolUseReport {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
  status: 'succeeded' | 'failed';
  /** The event's `tool_response` (PostToolUse): what `observe` rules read and record. */
  response?: unknown;
  error?: string;
}

/** How a report was recorded: the outcome under its decision (or why none), and the observations it made. */
export type ToolUseOutcome = ({ recorded: true; decisionId: string } | { recorded: false; reason: string }) & {
  /** One per `observe` rule the call matched: the result recorded for or against that rule's claim. */
  observed: readonly RecordedObservation[];
};

/**
 * Records what Claude Code reports after a call: the outcome of a call the gate allowed, and the
 * call's result as an observation on each claim the mapping's `observe` rules name for it (source
 * `tool:<tool name>`; a failed call refutes). A call answered `ask` is claimed here first: it ran, so
 * Claude Code's permission prompt confirmed it (recorded as the confirmation), unless the evidence
 * changed since (then nothing is claimed and the reason says so).
 * @throws {DecisionError} when the ledger cannot record the outcome, or already holds another one.
 * @throws {InvalidArgumentError} when a tool name cannot be an observation's source.
 */
export async function recordToolUseOutcome(report: ToolUseReport, options: ClaudeGateOptions): Promise<ToolUseOutcome> {
  const outcome = await recordOutcomeOf(report, options);
  const observed: RecordedObservation[] = [];
  const failed = report.status === 'failed';
  for (const o of observeToolCall(options.mapping, report.toolName, report.toolInput, failed ? report.error : report.response, failed)) {
    // The mapping decided the claim and the polarity; the shared observe path records it (source tool:<name>).
    const observe = {
      store: options.store,
      claim: o.claim,
      supports: () => o.supports,
      project: options.mapping.project,
      ...(options.now === undefined ? {} : { now: options.now }),
    };
    checkObserveOptions(observe);
    const recorded = await observeResult(observe, report.toolName, report.toolInput, failed ? { error: report.error ?? 'failed' } : (report.response ?? null));
    if (recorded !== undefined) observed.push(recorded);
  }
  return { ...outcome, observed };
}

async function recordOutcomeOf(
  report: ToolUseReport,
  options: ClaudeGateOptions,
): Promise<{ recorded: true; decisionId: string } | { recorded: false; reason: string }> {
  const outcome = report.status === 'failed' ? { status: report.status, error: report.error ?? 'failed' } : { status: report.status };
  const claimed = await recordCallOutcome(options.store, CLAUDE_CODE_GATE, report.toolUseId, outcome);
  if (claimed !== undefined) return { recorded: true, decisionId: claimed };
  const mapped = mapToolCall(options.mapping, report.toolName, report.toolInput);
  if (mapped.kind !== 'gated') return { recorded: false, reason: `${report.toolName} is not gated by the tool mapping` };
  const { propositionId } = resolveGate(gateOptionsOf(mapped, options), report.toolInput, report.toolName);
  const decided = (await listDecisions(options.store, { proposition: propositionId, limit: 100_000 })).filter(
    (d) => d.record.gate === CLAUDE_CODE_GATE && d.record.call_id === report.toolUseId,
  );
  const last = decided.at(-1);
  if (last === undefined) return { recorded: false, reason: `no decision is recorded for tool use ${report.toolUseId}` };
  if (last.record.decision !== 'REQUIRE_CONFIRMATION')
    return { recorded: false, reason: `decision ${last.decision_id} was ${last.record.decision} and was not claimed` };
  const run = await claimDecision(options.store, last.decision_id, report.toolInput, {
    confirmation: { confirmedBy: `claude-code permission prompt of ${report.toolUseId}` },
  });
  if (run.status !== 'executed') return { recorded: false, reason: run.reason };
  await recordCallOutcome(options.store, CLAUDE_CODE_GATE, report.toolUseId, outcome);
  return { recorded: true, decisionId: last.decision_id };
}
