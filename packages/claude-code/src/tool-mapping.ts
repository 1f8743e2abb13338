/**
 * The tool mapping: which Claude Code tool call depends on which proposition, and what action it is.
 * One JSON file (docs in this package's README) read by `ewp hook pre-tool-use` and by
 * `warrantCanUseTool`, so the hook and the SDK callback decide the same call the same way.
 */
import { type Action, EwpError, type RiskPolicy } from '@ewp/core';

/** What a call of a tool no rule matches gets: no decision (Claude Code's own rules apply), a human, or a refusal. */
export type UnmappedPolicy = 'pass' | 'ask' | 'deny';

/**
 * What a mapped call gets while the ledger holds no evidence for its proposition: a human decides
 * (`ask`, the reason saying how to record evidence), or the gate's refusal stands (`deny`).
 */
export type NoEvidencePolicy = 'ask' | 'deny';

/** One rule: a tool name pattern, the proposition its calls depend on, the action they are. */
export interface ToolRule {
  /** A tool name, `*` matching any run of characters (`mcp__deploy__*`, `Bash`, `*`). */
  match: string;
  /** Proposition id; `{tool_name}` and `{tool_input.<field>}` (dotted paths) are filled from the call. */
  proposition: string;
  /** The action as the gate reads it; `action_id` defaults to the tool name and takes the same placeholders. */
  action: Omit<Action, 'action_id'> & { action_id?: string };
}

/** A parsed mapping file. */
export interface ToolMapping {
  /** What a tool no rule matches gets. Default `ask`. */
  unmapped: UnmappedPolicy;
  /** What a mapped call gets while no evidence is recorded for its proposition. Default `deny`. */
  noEvidence: NoEvidencePolicy;
  riskPolicy: RiskPolicy | undefined;
  /** Rules in file order; the first that matches decides. */
  tools: readonly (ToolRule & { pattern: RegExp })[];
}

/** What a tool call maps to: the gate's inputs, no rule, or a rule whose placeholder the call cannot fill. */
export type MappedCall = { kind: 'gated'; proposition: string; action: Action } | { kind: 'unmapped' } | { kind: 'unfillable'; reason: string };

const UNMAPPED: readonly UnmappedPolicy[] = ['pass', 'ask', 'deny'];
const NO_EVIDENCE: readonly NoEvidencePolicy[] = ['ask', 'deny'];
const RISKS = ['low', 'medium', 'high'];
const PLACEHOLDER = /\{([^{}]*)\}/g;

function invalid(path: string, message: string): EwpError {
  return new EwpError('EWP_REFUSE_INVALID_ARGUMENTS', message, { path });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(path, 'must be a non-empty string');
  return value;
}

function template(value: unknown, path: string): string {
  const s = text(value, path);
  for (const [, name] of s.matchAll(PLACEHOLDER)) {
    if (name !== 'tool_name' && !/^tool_input(\.[^.]+)+$/.test(name ?? '')) {
      throw invalid(path, `unknown placeholder {${name}}: use {tool_name} or {tool_input.<field>}`);
    }
  }
  return s;
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

function parseAction(value: unknown, path: string): ToolRule['action'] {
  if (!isRecord(value)) throw invalid(path, 'must be an object with kind, risk and reversible');
  const action: ToolRule['action'] = { kind: text(value.kind, `${path}.kind`) };
  if (value.action_id !== undefined) action.action_id = template(value.action_id, `${path}.action_id`);
  if (value.risk !== undefined) {
    if (typeof value.risk !== 'string' || !RISKS.includes(value.risk)) throw invalid(`${path}.risk`, 'must be low, medium or high');
    action.risk = value.risk as Action['risk'];
  }
  if (value.reversible !== undefined) {
    if (typeof value.reversible !== 'boolean') throw invalid(`${path}.reversible`, 'must be a boolean');
    action.reversible = value.reversible;
  }
  return action;
}

function parseRiskPolicy(value: unknown): RiskPolicy | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw invalid('$.risk_policy', 'must be an object');
  const policy: RiskPolicy = {};
  for (const key of ['high_requires_accepted', 'high_requires_no_open_conflict'] as const) {
    if (value[key] === undefined) continue;
    if (typeof value[key] !== 'boolean') throw invalid(`$.risk_policy.${key}`, 'must be a boolean');
    policy[key] = value[key];
  }
  return policy;
}

/**
 * Read a mapping file's JSON value.
 * @throws EwpError `EWP_REFUSE_INVALID_ARGUMENTS` naming the field (`$.tools[2].action.risk`).
 */
export function parseToolMapping(json: unknown): ToolMapping {
  if (!isRecord(json)) throw invalid('$', 'a tool mapping is an object with "tools"');
  const unmapped = json.unmapped ?? 'ask';
  if (!UNMAPPED.includes(unmapped as UnmappedPolicy)) throw invalid('$.unmapped', 'must be "pass", "ask" or "deny"');
  const noEvidence = json.no_evidence ?? 'deny';
  if (!NO_EVIDENCE.includes(noEvidence as NoEvidencePolicy)) throw invalid('$.no_evidence', 'must be "ask" or "deny"');
  if (!Array.isArray(json.tools)) throw invalid('$.tools', 'must be a list of rules');
  const tools = json.tools.map((rule: unknown, i) => {
    const path = `$.tools[${i}]`;
    if (!isRecord(rule)) throw invalid(path, 'must be an object with match, proposition and action');
    const match = text(rule.match, `${path}.match`);
    return {
      match,
      pattern: globToRegExp(match),
      proposition: template(rule.proposition, `${path}.proposition`),
      action: parseAction(rule.action, `${path}.action`),
    };
  });
  return { unmapped: unmapped as UnmappedPolicy, noEvidence: noEvidence as NoEvidencePolicy, riskPolicy: parseRiskPolicy(json.risk_policy), tools };
}

/** Fill a template's placeholders from the call; undefined and the reason when a field is missing or not a scalar. */
function fill(s: string, toolName: string, toolInput: unknown): { value: string } | { reason: string } {
  let missing: string | undefined;
  const value = s.replace(PLACEHOLDER, (_, name: string) => {
    if (name === 'tool_name') return toolName;
    let at: unknown = toolInput;
    for (const key of name.split('.').slice(1)) at = isRecord(at) && Object.hasOwn(at, key) ? at[key] : undefined;
    if (typeof at === 'string' || typeof at === 'number' || typeof at === 'boolean') return String(at);
    missing ??= name;
    return '';
  });
  return missing === undefined ? { value } : { reason: `the ${toolName} call has no string, number or boolean ${missing} for the mapping's {${missing}}` };
}

/** Map one tool call with the first rule that matches its name. */
export function mapToolCall(mapping: ToolMapping, toolName: string, toolInput: unknown): MappedCall {
  const rule = mapping.tools.find((r) => r.pattern.test(toolName));
  if (rule === undefined) return { kind: 'unmapped' };
  const proposition = fill(rule.proposition, toolName, toolInput);
  if ('reason' in proposition) return { kind: 'unfillable', reason: proposition.reason };
  const actionId = fill(rule.action.action_id ?? '{tool_name}', toolName, toolInput);
  if ('reason' in actionId) return { kind: 'unfillable', reason: actionId.reason };
  return { kind: 'gated', proposition: proposition.value, action: { ...rule.action, action_id: actionId.value } };
}
