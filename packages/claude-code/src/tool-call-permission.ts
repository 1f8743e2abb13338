/**
 * One Claude tool call through the shared warrant gate, answered in Claude's permission vocabulary
 * (`allow` / `ask` / `deny`, or no answer for an unmapped tool under `"unmapped": "pass"`). The hook
 * command and the SDK callbacks all call this; nothing here is specific to how the answer travels.
 * Decisions are recorded under the gate `claude-code` with Claude's `tool_use_id`; an `allow` claims
 * the call's one execution in the ledger (Claude Code runs the tool itself, so its outcome is recorded
 * from the PostToolUse / PostToolUseFailure report, {@link recordToolUseOutcome}).
 */
import type { Decision } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { claimDecision, decideGate, gateOptionsForCall, listDecisions, recordCallOutcome, recoveryReason, ruleReason } from '@ewp/tools';
import { mapToolCall, type ToolMapping } from './tool-mapping.js';

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

/** The `ask` reason while nothing is recorded for `proposition`: what to record, and where. */
export function noEvidenceReason(proposition: string): string {
  return (
    `EWP: no evidence is recorded for ${proposition} yet, so a human decides (no_evidence: ask). ` +
    `To let the gate decide, record evidence for ${proposition}: a view with a check, stored with ` +
    '`ewp ingest view.json --db ewp.sqlite` (or put() on the store from your agent); see the @ewp/claude-code README'
  );
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
    const d = await decideGate(
      gateOptionsForCall(
        {
          proposition: mapped.proposition,
          action: mapped.action,
          store: options.store,
          ...(options.mapping.riskPolicy === undefined ? {} : { riskPolicy: options.mapping.riskPolicy }),
          ...(options.now === undefined ? {} : { now: options.now }),
        },
        CLAUDE_CODE_GATE,
        call.toolUseId,
      ),
      toolInput,
    );
    const reason = `EWP ${d.decision}: ${ruleReason(d)}`;
    // Nothing recorded yet (not a held or refuted call): under `"no_evidence": "ask"` a human decides,
    // as for an unmapped tool, and is told how the gate could decide next time.
    if (d.decision === 'DENY' && d.warrant === undefined && recoveryReason(d) === undefined && options.mapping.noEvidence === 'ask') {
      return { decision: 'ask', reason: noEvidenceReason(mapped.proposition) };
    }
    if (d.decision === 'DENY') return { decision: 'deny', reason };
    let confirmation: { confirmed_by: string } | undefined;
    if (d.decision === 'REQUIRE_CONFIRMATION') {
      if (call.confirm === undefined) return { decision: PERMISSION[d.decision], reason };
      if (!(await call.confirm(reason))) return { decision: 'deny', reason: `${reason}; not confirmed` };
      confirmation = { confirmed_by: `claude-code canUseTool confirm of ${call.toolUseId ?? toolName}` };
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

/** What Claude Code reports after a call ran: PostToolUse (succeeded) or PostToolUseFailure (failed, with its error). */
export interface ToolUseReport {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
  status: 'succeeded' | 'failed';
  error?: string;
}

/** How a report was recorded: under which decision, or why nothing was recorded. */
export type ToolUseOutcome = { recorded: true; decision_id: string } | { recorded: false; reason: string };

/**
 * Records the outcome of a call the gate allowed. A call answered `ask` is claimed here first: it ran,
 * so Claude Code's permission prompt confirmed it (recorded as the confirmation), unless the evidence
 * changed since (then nothing is claimed and the reason says so).
 * @throws {DecisionError} when the ledger cannot record the outcome, or already holds another one.
 */
export async function recordToolUseOutcome(report: ToolUseReport, options: ClaudeGateOptions): Promise<ToolUseOutcome> {
  const outcome = report.status === 'failed' ? { status: report.status, error: report.error ?? 'failed' } : { status: report.status };
  const claimed = await recordCallOutcome(options.store, CLAUDE_CODE_GATE, report.toolUseId, outcome);
  if (claimed !== undefined) return { recorded: true, decision_id: claimed };
  const mapped = mapToolCall(options.mapping, report.toolName, report.toolInput);
  if (mapped.kind !== 'gated') return { recorded: false, reason: `${report.toolName} is not gated by the tool mapping` };
  const decided = (await listDecisions(options.store, { proposition: mapped.proposition, limit: 100_000 })).filter(
    (d) => d.record.gate === CLAUDE_CODE_GATE && d.record.call_id === report.toolUseId,
  );
  const last = decided.at(-1);
  if (last === undefined) return { recorded: false, reason: `no decision is recorded for tool use ${report.toolUseId}` };
  if (last.record.decision !== 'REQUIRE_CONFIRMATION')
    return { recorded: false, reason: `decision ${last.decision_id} was ${last.record.decision} and was not claimed` };
  const run = await claimDecision(options.store, last.decision_id, report.toolInput, {
    confirmation: { confirmed_by: `claude-code permission prompt of ${report.toolUseId}` },
  });
  if (run.status !== 'executed') return { recorded: false, reason: run.reason };
  await recordCallOutcome(options.store, CLAUDE_CODE_GATE, report.toolUseId, outcome);
  return { recorded: true, decision_id: last.decision_id };
}
