/**
 * One Claude tool call through the shared warrant gate, answered in Claude's permission vocabulary
 * (`allow` / `ask` / `deny`, or no answer for an unmapped tool under `"unmapped": "pass"`). The hook
 * command and the SDK callbacks all call this; nothing here is specific to how the answer travels.
 */
import type { Decision } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { decideGate, ruleReason } from '@ewp/tools';
import { mapToolCall, type ToolMapping } from './tool-mapping.js';

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

/** The gate's decision in Claude's vocabulary: the one mapping of this binding. */
const PERMISSION: Record<Decision, ClaudePermissionDecision> = { MAY_ACT: 'allow', REQUIRE_CONFIRMATION: 'ask', DENY: 'deny' };

/** Decide one tool call on the latest stored evidence. A ledger that cannot be read denies (fail closed). */
export async function toolCallPermission(toolName: string, toolInput: unknown, options: ClaudeGateOptions): Promise<ClaudePermission> {
  const mapped = mapToolCall(options.mapping, toolName, toolInput);
  if (mapped.kind === 'unfillable') return { decision: 'deny', reason: `EWP: ${mapped.reason}; nothing to decide on, so the call is refused` };
  if (mapped.kind === 'unmapped') {
    const decision = options.mapping.unmapped === 'pass' ? undefined : options.mapping.unmapped;
    return { decision, reason: `EWP: no rule of the tool mapping matches ${toolName} (unmapped: ${options.mapping.unmapped})` };
  }
  try {
    const d = await decideGate(
      {
        proposition: mapped.proposition,
        action: mapped.action,
        store: options.store,
        ...(options.mapping.riskPolicy === undefined ? {} : { riskPolicy: options.mapping.riskPolicy }),
        ...(options.now === undefined ? {} : { now: options.now }),
      },
      toolInput,
    );
    return { decision: PERMISSION[d.decision], reason: `EWP ${d.decision}: ${ruleReason(d)}` };
  } catch (error) {
    return {
      decision: 'deny',
      reason: `EWP: the warrant could not be decided (${error instanceof Error ? error.message : String(error)}); the call is refused`,
    };
  }
}
