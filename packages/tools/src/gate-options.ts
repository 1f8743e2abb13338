/**
 * A gate's options as every binding takes them, checked in one place and turned into the protocol's
 * wire objects in one place. The options are camelCase JavaScript (`claim`, `action: { id, kind,
 * risk, reversible }`, `riskPolicy: { highRequiresAccepted }`); the protocol's snake_case `Action`
 * and `RiskPolicy` exist only in what is recorded and evaluated. Each binding checks its options once,
 * when it wraps a tool, with {@link checkGateOptions}, and names every call by its gate name and the
 * framework's call id.
 */
import { type Action, InvalidArgumentError, RISKS, type Risk, type RiskPolicy } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type ClaimScope, claimProposition, type RecordedObservation, recordObservation } from './claim.js';
import type { DecisionRecording } from './decisions/recording-gate.js';
import { isObject } from './tool-arguments.js';

/** The action a gated tool performs, as its options name it. */
export interface GateAction {
  /**
   * Names the action across calls: decisions on one action id share the recovery gate (a later call
   * is held when the evidence an earlier one rested on changed). Default: the tool's name.
   */
  id?: string;
  /** What kind of action it is (`restart`, `deploy`, `send_email`). Default: the tool's name. */
  kind?: string;
  /** Default `low`. */
  risk?: Risk;
  /** Default `true`. */
  reversible?: boolean;
}

/** The operator's action policy (the protocol's risk policy, camelCase). Both default `true`. */
export interface GateRiskPolicy {
  /** A high-risk action needs its claim ACCEPTED. */
  highRequiresAccepted?: boolean;
  /** A high-risk action needs no open conflict on its claim. */
  highRequiresNoOpenConflict?: boolean;
}

/** Options of every binding's `gate(tool, options)`. Give `claim` (in words) or `proposition` (an id), not both. */
export interface GateOptions<INPUT = unknown> extends ClaimScope {
  /** Where evidence is kept (the same store the tools and `observe` write to). */
  store: EvidenceStore;
  /** The claim the action depends on, in words, or a function of the tool input: where `observe` lands a tool's results. */
  claim?: string | ((input: INPUT) => string);
  /** The proposition id the action depends on (evidence recorded by id), or a function of the tool input. */
  proposition?: string | ((input: INPUT) => string);
  /** The action, or a function of the tool input. Default: the tool's name as id and kind, low risk, reversible. */
  action?: GateAction | ((input: INPUT) => GateAction);
  /** The operator's action policy. Default: both rules on. */
  riskPolicy?: GateRiskPolicy;
  /** Clock for the decision time. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * How decisions are recorded in the store's ledger (signer; the gate name is the binding's unless
   * given). Default: recorded. `false` decides without the ledger: no record, no recovery gate.
   */
  record?: DecisionRecording | false;
  /** Maps the tool input to the call's id in its record. Default: the framework's call id, or a random one. */
  callId?: (input: INPUT) => string | undefined;
}

/** A gate's options after {@link checkGateOptions}: what the decision is about, for one input. */
export interface ResolvedGate {
  propositionId: string;
  /** The claim in words, when the options named one. */
  claim: string | undefined;
  action: Action;
  riskPolicy: RiskPolicy | undefined;
}

function fieldOf<INPUT, T>(value: T | ((input: INPUT) => T), input: INPUT): T {
  return typeof value === 'function' ? (value as (input: INPUT) => T)(input) : value;
}

/** The fields of a {@link GateAction}. */
const ACTION_FIELDS: readonly string[] = ['id', 'kind', 'risk', 'reversible'];
/** The protocol's name of an action field, where it differs: the option it stands for. */
const OPTION_FOR_PROTOCOL_NAME: Readonly<Record<string, string>> = { action_id: 'id' };

function checkAction(a: unknown, path: string): asserts a is GateAction {
  if (!isObject(a)) throw new InvalidArgumentError(path, 'must be an object { id?, kind?, risk?, reversible? } or a function returning one');
  // An unknown field is refused, not ignored: `action_id` (the protocol's name) would otherwise leave the id to default.
  for (const key of Object.keys(a)) {
    if (ACTION_FIELDS.includes(key)) continue;
    const meant = Object.hasOwn(OPTION_FOR_PROTOCOL_NAME, key) ? OPTION_FOR_PROTOCOL_NAME[key] : undefined;
    throw new InvalidArgumentError(
      `${path}.${key}`,
      meant === undefined ? 'is not a field of an action { id?, kind?, risk?, reversible? }' : `is the protocol's name; the option is \`${meant}\``,
    );
  }
  for (const key of ['id', 'kind'] as const) {
    const v = a[key];
    if (v !== undefined && (typeof v !== 'string' || v === '')) throw new InvalidArgumentError(`${path}.${key}`, 'must be a non-empty string');
  }
  if (a.risk !== undefined && !(RISKS as readonly unknown[]).includes(a.risk))
    throw new InvalidArgumentError(`${path}.risk`, `must be one of ${RISKS.join(', ')}`);
  if (a.reversible !== undefined && typeof a.reversible !== 'boolean') throw new InvalidArgumentError(`${path}.reversible`, 'must be a boolean');
}

/**
 * The one check that options carry an EvidenceStore (gates, observers, tool sets, sessions, memory
 * processors): `options` must be an object and `options.store` a store.
 * @throws {InvalidArgumentError} `EWP_REFUSE_INVALID_ARGUMENT` naming `<path>` or `<path>.store`.
 */
export function checkStoreOption(options: unknown, path = 'options'): void {
  if (!isObject(options)) throw new InvalidArgumentError(path, 'must be an object with a store');
  const store = options.store;
  if (!isObject(store) || typeof store.get !== 'function' || typeof store.extend !== 'function') {
    throw new InvalidArgumentError(
      `${path}.store`,
      'an EvidenceStore is required: the one your gates read and observe() writes (e.g. new SqliteEvidenceStore(file))',
    );
  }
}

/**
 * The one check of a gate's options, made when a binding wraps a tool: a store, exactly one of `claim`
 * and `proposition`, a well-formed action and policy, and the binding's gate name. `path` names the
 * options in the error (`options`, `gates.restart`).
 * @throws {InvalidArgumentError} `EWP_REFUSE_INVALID_ARGUMENT`, naming the field and how to fix it.
 */
export function checkGateOptions<INPUT>(options: GateOptions<INPUT>, gate: string, path = 'options'): void {
  if (typeof gate !== 'string' || gate === '') throw new InvalidArgumentError('gate', "a binding's gate name is required (it names the decisions it records)");
  if (!isObject(options)) throw new InvalidArgumentError(path, 'must be an object { store, claim, action?, ... }');
  checkStoreOption(options, path);
  const hasClaim = options.claim !== undefined;
  const hasProposition = options.proposition !== undefined;
  if (hasClaim === hasProposition) {
    throw new InvalidArgumentError(
      `${path}.claim`,
      hasClaim ? 'give claim or proposition, not both' : 'name what the action depends on: claim (in words, e.g. "server01 is healthy") or proposition (an id)',
    );
  }
  for (const key of ['claim', 'proposition'] as const) {
    const v = options[key];
    if (v !== undefined && typeof v !== 'function' && (typeof v !== 'string' || v.trim() === '')) {
      throw new InvalidArgumentError(`${path}.${key}`, 'must be a non-empty string or a function of the tool input');
    }
  }
  if (options.action !== undefined && typeof options.action !== 'function') checkAction(options.action, `${path}.action`);
  const policy = options.riskPolicy as unknown;
  if (policy !== undefined) {
    if (!isObject(policy)) throw new InvalidArgumentError(`${path}.riskPolicy`, 'must be an object { highRequiresAccepted?, highRequiresNoOpenConflict? }');
    for (const key of ['highRequiresAccepted', 'highRequiresNoOpenConflict'] as const) {
      if (policy[key] !== undefined && typeof policy[key] !== 'boolean') throw new InvalidArgumentError(`${path}.riskPolicy.${key}`, 'must be a boolean');
    }
  }
  if (options.now !== undefined && typeof options.now !== 'function') throw new InvalidArgumentError(`${path}.now`, 'must be a function returning a Date');
  if (options.callId !== undefined && typeof options.callId !== 'function')
    throw new InvalidArgumentError(`${path}.callId`, 'must be a function of the tool input');
}

/** The protocol's risk policy for camelCase options (the one conversion). */
export function wireRiskPolicy(policy: GateRiskPolicy | undefined): RiskPolicy | undefined {
  if (policy === undefined) return undefined;
  return {
    ...(policy.highRequiresAccepted === undefined ? {} : { high_requires_accepted: policy.highRequiresAccepted }),
    ...(policy.highRequiresNoOpenConflict === undefined ? {} : { high_requires_no_open_conflict: policy.highRequiresNoOpenConflict }),
  };
}

/**
 * The protocol's action for camelCase options (the one conversion); `tool` names it by default.
 * @throws {InvalidArgumentError} naming `action.id` or `action.kind` when neither the action nor a tool names it.
 */
export function wireAction(action: GateAction | undefined, tool: string | undefined): Action {
  const named = (field: 'id' | 'kind', value: string | undefined): string => {
    if (typeof value !== 'string' || value === '') {
      throw new InvalidArgumentError(`action.${field}`, `name the action's ${field}: this call names no tool for it to default to`);
    }
    return value;
  };
  return {
    action_id: named('id', action?.id ?? tool),
    kind: named('kind', action?.kind ?? tool),
    risk: action?.risk ?? 'low',
    reversible: action?.reversible ?? true,
  };
}

/**
 * What a checked gate decides about for one input: the claim's proposition (or the given id), the wire
 * action (defaults named after `tool`) and the wire policy.
 * @throws {InvalidArgumentError} when a function option returned something malformed.
 */
export function resolveGate<INPUT>(options: GateOptions<INPUT>, input: INPUT, tool: string, path = 'options'): ResolvedGate {
  const claim = options.claim === undefined ? undefined : fieldOf(options.claim, input);
  const given = options.proposition === undefined ? undefined : fieldOf(options.proposition, input);
  const named = claim ?? given;
  if (typeof named !== 'string' || named.trim() === '') {
    throw new InvalidArgumentError(`${path}.${claim === undefined ? 'proposition' : 'claim'}`, 'returned no non-empty string for this input');
  }
  const action = options.action === undefined ? undefined : fieldOf(options.action, input);
  if (action !== undefined) checkAction(action, `${path}.action`);
  return {
    propositionId: claim === undefined ? named : claimProposition(claim, options),
    claim,
    action: wireAction(action, tool),
    riskPolicy: wireRiskPolicy(options.riskPolicy),
  };
}

/**
 * Options of every binding's `observe(tool, options)`: which claim the tool's results speak to and
 * whether a result supports it. The observation's source is the wrapped tool (`tool:<name>`), bound by
 * the binding: the model never names it.
 */
export interface ObserveOptions<INPUT = unknown, RESULT = unknown> extends ClaimScope {
  /** Where the observations are recorded (the store the gates read). */
  store: EvidenceStore;
  /** The claim the results speak to, in words, or a function of the tool input and result. */
  claim: string | ((input: INPUT, result: RESULT) => string);
  /**
   * Whether a result supports the claim (`true`) or refutes it (`false`); `undefined` records nothing
   * (a result that says nothing about the claim, e.g. a timeout).
   */
  supports: (result: RESULT, input: INPUT) => boolean | undefined;
  /** The clock of the records. Default `() => new Date()`. */
  now?: () => Date;
}

/**
 * The one check of `observe`'s options, made when a binding wraps a tool: a store, a claim (a
 * non-empty string or a function) and a `supports` function.
 * @throws {InvalidArgumentError} `EWP_REFUSE_INVALID_ARGUMENT`, naming the field and how to fix it.
 */
export function checkObserveOptions<INPUT, RESULT>(options: ObserveOptions<INPUT, RESULT>, path = 'options'): void {
  if (!isObject(options)) throw new InvalidArgumentError(path, 'must be an object { store, claim, supports, ... }');
  checkStoreOption(options, path);
  const claim = options.claim as unknown;
  if (typeof claim !== 'function' && (typeof claim !== 'string' || claim.trim() === '')) {
    throw new InvalidArgumentError(
      `${path}.claim`,
      'name the claim the results speak to: a non-empty string (e.g. "server01 is healthy") or a function of (input, result)',
    );
  }
  if (typeof options.supports !== 'function') {
    throw new InvalidArgumentError(
      `${path}.supports`,
      'a function (result, input) => true (supports the claim), false (refutes it) or undefined (records nothing)',
    );
  }
  if (options.now !== undefined && typeof options.now !== 'function') throw new InvalidArgumentError(`${path}.now`, 'must be a function returning a Date');
}

/**
 * Records one result of an observed tool as {@link ObserveOptions} say: the claim for this input and
 * result, supporting or refuting it, with the tool as its source; nothing when `supports` answers
 * `undefined`.
 * @throws {InvalidArgumentError} when `claim` or `supports` returned something malformed; the store's
 * error when it cannot record.
 */
export async function observeResult<INPUT, RESULT>(
  options: ObserveOptions<INPUT, RESULT>,
  tool: string,
  input: INPUT,
  result: RESULT,
): Promise<RecordedObservation | undefined> {
  const supports = options.supports(result, input);
  if (supports === undefined) return undefined;
  const claim = typeof options.claim === 'function' ? options.claim(input, result) : options.claim;
  return recordObservation({
    store: options.store,
    claim,
    tool,
    result,
    supports,
    project: options.project,
    now: options.now,
  });
}
