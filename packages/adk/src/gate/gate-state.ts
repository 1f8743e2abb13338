/**
 * The gate's verdict as ADK callback state: one serialized record under one state key, written by the
 * before-agent callback (a BLOCK that opens every invocation) and by the before-tool gate (ALLOW only
 * on MAY_ACT), persisted with the event that carries it (`actions.stateDelta`). A consequential action
 * runs only on an explicit ALLOW read back from that state: anything else (nothing stored, a value that
 * is not the serialized record, another invocation's or call's verdict, a verdict older than its
 * bound, a BLOCK) is blocked. Fail closed: the absence of a decision is never permission.
 */
import type { Decision } from '@ewp/core';
import { z } from 'zod';

/** The state key the binding writes its verdict under (a session-scoped key: it persists with the session). */
export const GATE_STATE_KEY = 'ewp:gate';

/** The version of the serialized verdict; a record of another version is malformed. */
export const GATE_STATE_VERSION = 1;

/** How old (seconds from its `evaluatedAt`) an ALLOW may be when a consequential action reads it. Default 300. */
export const DEFAULT_ALLOW_MAX_AGE_SECONDS = 300;

const nullableString = z.string().min(1).nullable();

const gateStateSchema = z
  .object({
    v: z.literal(GATE_STATE_VERSION),
    verdict: z.enum(['ALLOW', 'BLOCK']),
    invocationId: z.string().min(1),
    functionCallId: nullableString,
    tool: nullableString,
    callId: nullableString,
    decision: z.enum(['MAY_ACT', 'REQUIRE_CONFIRMATION', 'DENY']).nullable(),
    decisionId: nullableString,
    propositionId: nullableString,
    actionId: nullableString,
    evaluatedAt: z.iso.datetime({ offset: true }),
    reason: z.string(),
  })
  .strict()
  // An ALLOW names the recorded MAY_ACT decision it rests on and the call it is for; a BLOCK need not.
  .refine((s) => s.verdict === 'BLOCK' || (s.decision === 'MAY_ACT' && s.decisionId !== null && s.functionCallId !== null && s.tool !== null), {
    message: 'an ALLOW names a recorded MAY_ACT decision, its tool and its function call',
  });

/** The serialized verdict, as stored in ADK callback state (a JSON string of this shape). */
export interface GateState {
  v: typeof GATE_STATE_VERSION;
  /** ALLOW only when the gate decided MAY_ACT; every other outcome, and no decision yet, is BLOCK. */
  verdict: 'ALLOW' | 'BLOCK';
  /** ADK's invocation id of the run the verdict belongs to. */
  invocationId: string;
  /** ADK's function-call id of the gated call; null for the BLOCK that opens an invocation. */
  functionCallId: string | null;
  /** The gated tool's name. */
  tool: string | null;
  /** The gate's call id in the decision record (`<invocation id>:<function-call id>`). */
  callId: string | null;
  /** The gate's decision (`mayAct` bounded by the recovery gate); null when nothing was decided. */
  decision: Decision | null;
  /** The recorded decision (`ewp decisions show <id>`); null when nothing was decided. */
  decisionId: string | null;
  propositionId: string | null;
  actionId: string | null;
  /** When the verdict was made (ISO 8601). */
  evaluatedAt: string;
  /** Why, in words. */
  reason: string;
}

/** Serialize a verdict for callback state. */
export function serializeGateState(state: GateState): string {
  return JSON.stringify(gateStateSchema.parse(state));
}

/** Why a consequential action was blocked. */
export type BlockCode = 'MISSING' | 'MALFORMED' | 'STALE' | 'OTHER_INVOCATION' | 'OTHER_CALL' | 'NOT_ALLOW';

/** What {@link consequentialActionAllowed} found. */
export type ConsequentialCheck = { allowed: true; gate: GateState } | { allowed: false; code: BlockCode; reason: string; gate: GateState | null };

/** ADK's `State` (delta-aware, from a callback context) or a session's plain state record. */
export type StateLike = { get(key: string): unknown } | Readonly<Record<string, unknown>>;

/** What the reader expects of the verdict: the invocation and call it must belong to, the clock, the bound on its age. */
export interface ConsequentialExpectation {
  /** The invocation the action belongs to; a verdict of another invocation is blocked. */
  invocationId?: string;
  /** The function call the action is; a verdict for another call is blocked. */
  functionCallId?: string;
  /** The tool the action runs; a verdict for another tool is blocked. */
  tool?: string;
  /** The state key. Default {@link GATE_STATE_KEY}. */
  key?: string;
  /** Clock. Default `() => new Date()`. */
  now?: () => Date;
  /** Largest age of an ALLOW, in seconds. Default {@link DEFAULT_ALLOW_MAX_AGE_SECONDS}. */
  maxAgeSeconds?: number;
}

function read(state: StateLike, key: string): unknown {
  // A callback context's State answers the pending delta first; a session's state is a plain record.
  const get = (state as { get?: unknown }).get;
  return typeof get === 'function' ? (get as (k: string) => unknown).call(state, key) : (state as Record<string, unknown>)[key];
}

/**
 * Whether a consequential action may run: true only for an explicit, serialized ALLOW under `key`
 * that belongs to the expected invocation, call and tool, and is at most `maxAgeSeconds` old (and
 * not from the future beyond that bound). Everything else is blocked, with a code and a reason.
 */
export function consequentialActionAllowed(state: StateLike | undefined | null, expect: ConsequentialExpectation = {}): ConsequentialCheck {
  const key = expect.key ?? GATE_STATE_KEY;
  const raw = state === undefined || state === null ? undefined : read(state, key);
  const block = (code: BlockCode, reason: string, gate: GateState | null = null): ConsequentialCheck => ({ allowed: false, code, reason, gate });
  if (raw === undefined || raw === null) return block('MISSING', `no gate verdict in state ${JSON.stringify(key)}: nothing allows this action`);
  if (typeof raw !== 'string')
    return block('MALFORMED', `state ${JSON.stringify(key)} holds a ${Array.isArray(raw) ? 'list' : typeof raw}, not a serialized verdict`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return block('MALFORMED', `state ${JSON.stringify(key)} is not JSON`);
  }
  const decoded = gateStateSchema.safeParse(parsed);
  if (!decoded.success) {
    const issue = decoded.error.issues[0];
    return block('MALFORMED', `state ${JSON.stringify(key)} is not a gate verdict: ${issue?.path.join('.') || '$'} ${issue?.message ?? ''}`.trim());
  }
  const gate = decoded.data as GateState;
  if (expect.invocationId !== undefined && gate.invocationId !== expect.invocationId) {
    return block('OTHER_INVOCATION', `the verdict belongs to invocation ${gate.invocationId}, not ${expect.invocationId}`, gate);
  }
  if (gate.verdict !== 'ALLOW') return block('NOT_ALLOW', `the gate did not allow it: ${gate.reason}`, gate);
  if (expect.functionCallId !== undefined && gate.functionCallId !== expect.functionCallId) {
    return block('OTHER_CALL', `the ALLOW is for function call ${gate.functionCallId}, not ${expect.functionCallId}`, gate);
  }
  if (expect.tool !== undefined && gate.tool !== expect.tool) return block('OTHER_CALL', `the ALLOW is for tool ${gate.tool}, not ${expect.tool}`, gate);
  const maxAge = (expect.maxAgeSeconds ?? DEFAULT_ALLOW_MAX_AGE_SECONDS) * 1000;
  const age = (expect.now ?? (() => new Date()))().getTime() - Date.parse(gate.evaluatedAt);
  if (!(Math.abs(age) <= maxAge)) {
    return block('STALE', `the ALLOW was made at ${gate.evaluatedAt}, ${Math.round(age / 1000)} s from now (at most ${maxAge / 1000} s)`, gate);
  }
  return { allowed: true, gate };
}
