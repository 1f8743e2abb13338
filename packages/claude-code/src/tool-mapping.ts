/**
 * The tool mapping: which claim each Claude Code tool call depends on and what action it is (`tools`),
 * and which tool results are evidence for which claim (`observe`). One JSON file (docs in this
 * package's README) read by `ewp hook pre-tool-use` / `post-tool-use` and by the Agent SDK callbacks,
 * so the hook and the SDK decide and observe the same call the same way.
 *
 * The file is on the wire and keeps snake_case keys (`no_evidence`, `risk_policy`, `action_id`,
 * `supports_when`); {@link parseToolMapping} is the one place they become the camelCase
 * {@link ToolMapping} the code reads.
 */
import { InvalidArgumentError, RISKS, type Risk } from '@ewp/core';
import type { GateAction, GateRiskPolicy } from '@ewp/tools/gate';

/** What a call of a tool no rule matches gets: no decision (Claude Code's own rules apply), a human, or a refusal. */
export type UnmappedPolicy = 'pass' | 'ask' | 'deny';

/**
 * What a mapped call gets while the ledger holds no evidence for its claim: a human decides (`ask`,
 * the reason saying how to record evidence), or the gate's refusal stands (`deny`).
 */
export type NoEvidencePolicy = 'ask' | 'deny';

/** What a gated call depends on: a claim in words (where observations land), or a proposition id. */
export type GateSubject = { claim: string } | { proposition: string };

/** One `tools` rule: a tool name pattern, what its calls depend on, the action they are. */
export interface ToolRule {
  /** A tool name, `*` matching any run of characters (`mcp__deploy__*`, `Bash`, `*`). */
  match: string;
  pattern: RegExp;
  /**
   * The claim (or proposition id) the call depends on, as a template: `{tool_name}` and
   * `{tool_input.<field>}` (dotted paths) are filled from the call.
   */
  subject: GateSubject;
  /** The action; `id` (the file's `action_id`) defaults to the tool name and takes the same placeholders; `kind` defaults to the tool name. */
  action: GateAction;
}

/** One condition of an `observe` rule on the call's input: the field's value matches the pattern. */
export interface InputCondition {
  /** Dotted path into `tool_input` (`command`, `target.host`). */
  field: string;
  pattern: RegExp;
}

/**
 * One `observe` rule: the results of matching tool calls are observations for or against a claim.
 * A call that ran (`PostToolUse`) supports the claim when `supportsWhen` is absent or matches the
 * response text, and refutes it otherwise; a call that failed (`PostToolUseFailure`: for `Bash`, a
 * non-zero exit) refutes it.
 */
export interface ObserveRule {
  /** A tool name pattern, as in `tools`. */
  match: string;
  pattern: RegExp;
  /** Conditions on the call's input, all of which must hold (none: every call of the tool). */
  input: readonly InputCondition[];
  /** The claim the result speaks to, as a template (the placeholders of `tools`). */
  claim: string;
  /** Tested against the response text (a string response as is, anything else as JSON); undefined: a call that ran supports. */
  supportsWhen: RegExp | undefined;
}

/** A parsed mapping file, camelCase. */
export interface ToolMapping {
  /** What a tool no rule matches gets. Default `ask`. */
  unmapped: UnmappedPolicy;
  /** What a mapped call gets while no evidence is recorded for its claim. Default `deny`. */
  noEvidence: NoEvidencePolicy;
  /** The operator's action policy (the file's `risk_policy`). */
  riskPolicy: GateRiskPolicy | undefined;
  /** Project scope of the claims and of their observations (the file's `project`). Default: global (null). */
  project: string | null;
  /** `tools` rules in file order; the first that matches decides. */
  tools: readonly ToolRule[];
  /** `observe` rules in file order; every one that matches records an observation. */
  observe: readonly ObserveRule[];
}

/** What a tool call maps to: the gate's inputs, no rule, or a rule whose placeholder the call cannot fill. */
export type MappedCall =
  | { kind: 'gated'; subject: GateSubject; action: GateAction & { id: string } }
  | { kind: 'unmapped' }
  | { kind: 'unfillable'; reason: string };

/** One observation a tool result makes: the claim (filled) and whether the result supports it. */
export interface MappedObservation {
  claim: string;
  supports: boolean;
}

const UNMAPPED: readonly UnmappedPolicy[] = ['pass', 'ask', 'deny'];
const NO_EVIDENCE: readonly NoEvidencePolicy[] = ['ask', 'deny'];
const PLACEHOLDER = /\{([^{}]*)\}/g;
const FIELD = /^[^.]+(\.[^.]+)*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) throw new InvalidArgumentError(path, 'must be a non-empty string');
  return value;
}

function template(value: unknown, path: string): string {
  const s = text(value, path);
  for (const [, name] of s.matchAll(PLACEHOLDER)) {
    if (name !== 'tool_name' && !/^tool_input(\.[^.]+)+$/.test(name ?? '')) {
      throw new InvalidArgumentError(path, `unknown placeholder {${name}}: use {tool_name} or {tool_input.<field>}`);
    }
  }
  return s;
}

function regex(value: unknown, path: string): RegExp {
  const source = text(value, path);
  try {
    return new RegExp(source);
  } catch (error) {
    throw new InvalidArgumentError(path, `must be a JavaScript regular expression (${error instanceof Error ? error.message : String(error)})`);
  }
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

function parseSubject(rule: Record<string, unknown>, path: string): GateSubject {
  const hasClaim = rule.claim !== undefined;
  if (hasClaim === (rule.proposition !== undefined)) {
    throw new InvalidArgumentError(
      `${path}.claim`,
      hasClaim
        ? 'give claim or proposition, not both'
        : 'name what the call depends on: claim (in words, e.g. "{tool_input.server} is healthy") or proposition (an id)',
    );
  }
  return hasClaim ? { claim: template(rule.claim, `${path}.claim`) } : { proposition: template(rule.proposition, `${path}.proposition`) };
}

function parseAction(value: unknown, path: string): GateAction {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new InvalidArgumentError(path, 'must be an object { action_id?, kind?, risk?, reversible? }');
  const action: GateAction = {};
  if (value.action_id !== undefined) action.id = template(value.action_id, `${path}.action_id`);
  if (value.kind !== undefined) action.kind = text(value.kind, `${path}.kind`);
  if (value.risk !== undefined) {
    if (!(RISKS as readonly unknown[]).includes(value.risk)) throw new InvalidArgumentError(`${path}.risk`, `must be one of ${RISKS.join(', ')}`);
    action.risk = value.risk as Risk;
  }
  if (value.reversible !== undefined) {
    if (typeof value.reversible !== 'boolean') throw new InvalidArgumentError(`${path}.reversible`, 'must be a boolean');
    action.reversible = value.reversible;
  }
  return action;
}

function parseRiskPolicy(value: unknown): GateRiskPolicy | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new InvalidArgumentError('$.risk_policy', 'must be an object { high_requires_accepted?, high_requires_no_open_conflict? }');
  const policy: GateRiskPolicy = {};
  const keys = [
    ['high_requires_accepted', 'highRequiresAccepted'],
    ['high_requires_no_open_conflict', 'highRequiresNoOpenConflict'],
  ] as const;
  for (const [wire, key] of keys) {
    if (value[wire] === undefined) continue;
    if (typeof value[wire] !== 'boolean') throw new InvalidArgumentError(`$.risk_policy.${wire}`, 'must be a boolean');
    policy[key] = value[wire];
  }
  return policy;
}

function parseInput(value: unknown, path: string): InputCondition[] {
  if (value === undefined) return [];
  if (!isRecord(value))
    throw new InvalidArgumentError(path, 'must be an object of tool_input fields to regular expressions ({ "command": "^curl .*/health" })');
  return Object.entries(value).map(([field, pattern]) => {
    if (!FIELD.test(field)) throw new InvalidArgumentError(`${path}.${field}`, 'must name a field of tool_input (a dotted path)');
    return { field, pattern: regex(pattern, `${path}.${field}`) };
  });
}

function parseObserve(value: unknown): ObserveRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidArgumentError('$.observe', 'must be a list of rules');
  return value.map((rule: unknown, i) => {
    const path = `$.observe[${i}]`;
    if (!isRecord(rule)) throw new InvalidArgumentError(path, 'must be an object { match, claim, input?, supports_when? }');
    const match = text(rule.match, `${path}.match`);
    return {
      match,
      pattern: globToRegExp(match),
      input: parseInput(rule.input, `${path}.input`),
      claim: template(rule.claim, `${path}.claim`),
      supportsWhen: rule.supports_when === undefined ? undefined : regex(rule.supports_when, `${path}.supports_when`),
    };
  });
}

/**
 * Read a mapping file's JSON value: the one conversion of its snake_case keys to {@link ToolMapping}.
 * @throws {InvalidArgumentError} `EWP_REFUSE_INVALID_ARGUMENT` naming the field (`$.tools[2].action.risk`).
 */
export function parseToolMapping(json: unknown): ToolMapping {
  if (!isRecord(json)) throw new InvalidArgumentError('$', 'a tool mapping is an object with "tools" (and optionally "observe")');
  const unmapped = json.unmapped ?? 'ask';
  if (!UNMAPPED.includes(unmapped as UnmappedPolicy)) throw new InvalidArgumentError('$.unmapped', 'must be "pass", "ask" or "deny"');
  const noEvidence = json.no_evidence ?? 'deny';
  if (!NO_EVIDENCE.includes(noEvidence as NoEvidencePolicy)) throw new InvalidArgumentError('$.no_evidence', 'must be "ask" or "deny"');
  const project = json.project === undefined || json.project === null ? null : text(json.project, '$.project');
  if (!Array.isArray(json.tools)) throw new InvalidArgumentError('$.tools', 'must be a list of rules');
  const tools = json.tools.map((rule: unknown, i): ToolRule => {
    const path = `$.tools[${i}]`;
    if (!isRecord(rule)) throw new InvalidArgumentError(path, 'must be an object { match, claim, action }');
    const match = text(rule.match, `${path}.match`);
    return { match, pattern: globToRegExp(match), subject: parseSubject(rule, path), action: parseAction(rule.action, `${path}.action`) };
  });
  return {
    unmapped: unmapped as UnmappedPolicy,
    noEvidence: noEvidence as NoEvidencePolicy,
    riskPolicy: parseRiskPolicy(json.risk_policy),
    project,
    tools,
    observe: parseObserve(json.observe),
  };
}

/** The value at a dotted path of the call's input, when it is a string, number or boolean. */
function inputField(toolInput: unknown, field: string): string | undefined {
  let at: unknown = toolInput;
  for (const key of field.split('.')) at = isRecord(at) && Object.hasOwn(at, key) ? at[key] : undefined;
  return typeof at === 'string' || typeof at === 'number' || typeof at === 'boolean' ? String(at) : undefined;
}

/** Fill a template's placeholders from the call; the reason when a field is missing or not a scalar. */
function fill(s: string, toolName: string, toolInput: unknown): { value: string } | { reason: string } {
  let missing: string | undefined;
  const value = s.replace(PLACEHOLDER, (_, name: string) => {
    if (name === 'tool_name') return toolName;
    const at = inputField(toolInput, name.slice('tool_input.'.length));
    if (at !== undefined) return at;
    missing ??= name;
    return '';
  });
  return missing === undefined ? { value } : { reason: `the ${toolName} call has no string, number or boolean ${missing} for the mapping's {${missing}}` };
}

/** Map one tool call with the first `tools` rule that matches its name. */
export function mapToolCall(mapping: ToolMapping, toolName: string, toolInput: unknown): MappedCall {
  const rule = mapping.tools.find((r) => r.pattern.test(toolName));
  if (rule === undefined) return { kind: 'unmapped' };
  const named = 'claim' in rule.subject ? rule.subject.claim : rule.subject.proposition;
  const filled = fill(named, toolName, toolInput);
  if ('reason' in filled) return { kind: 'unfillable', reason: filled.reason };
  const actionId = fill(rule.action.id ?? '{tool_name}', toolName, toolInput);
  if ('reason' in actionId) return { kind: 'unfillable', reason: actionId.reason };
  const subject: GateSubject = 'claim' in rule.subject ? { claim: filled.value } : { proposition: filled.value };
  return { kind: 'gated', subject, action: { ...rule.action, id: actionId.value } };
}

/** A tool response as the text `supports_when` reads: a string as is, anything else as JSON. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  try {
    return JSON.stringify(response) ?? '';
  } catch {
    return String(response);
  }
}

/**
 * The observations one reported call makes under the `observe` rules: every rule whose `match` and
 * `input` conditions hold, with its claim filled from the call (a rule whose claim the call cannot
 * fill is skipped: it does not speak to this call). `failed`: the call failed (it refutes).
 */
export function observeToolCall(mapping: ToolMapping, toolName: string, toolInput: unknown, response: unknown, failed: boolean): MappedObservation[] {
  const made: MappedObservation[] = [];
  for (const rule of mapping.observe) {
    if (!rule.pattern.test(toolName)) continue;
    if (
      !rule.input.every((c) => {
        const value = inputField(toolInput, c.field);
        return value !== undefined && c.pattern.test(value);
      })
    )
      continue;
    const claim = fill(rule.claim, toolName, toolInput);
    if ('reason' in claim) continue;
    const supports = !failed && (rule.supportsWhen === undefined || rule.supportsWhen.test(responseText(response)));
    made.push({ claim: claim.value, supports });
  }
  return made;
}
