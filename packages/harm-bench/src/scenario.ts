/**
 * The scenario format (docs/harm-bench.md): one JSON object per line, written by hand without
 * knowing EWP's records. A scenario is a short history of what an agent's memory received, one
 * action the agent is about to take, and whether taking it is justified (`truth`).
 */
import { type ErrorCodeTable, EwpError, POLARITIES, parseInstant, RISKS } from '@ewp/core';

/** What a family's author says the agent should do. */
export type Truth = 'act' | 'hold';
export type Risk = 'low' | 'medium' | 'high';

/** How an observation reached memory when it is not the source's own report. */
export type Via = 'summary' | 'partial_search';
/** What kind of thing made an observation (default `document`). */
export type Origin = 'tool' | 'sensor' | 'document' | 'person' | 'agent';

interface EventTimes {
  /** When the event says it happened (ISO 8601). */
  at: string;
  /** Extension: when the event entered memory, if not at `at` (a record dated in advance). */
  recorded_at?: string;
}

/** An observation from a tool, sensor, document or person. */
export interface ObserveEvent extends EventTimes {
  op: 'observe';
  claim: string;
  text: string;
  source: string;
  polarity: 'supports' | 'opposes';
  /** The entity observed. */
  subject?: string;
  /** A summary of the source's report, or a search that did not cover everything. */
  via?: Via;
  /** Extension: what made it (default `document`). */
  origin?: Origin;
  /** Extension: the observation is also a verification check by this method (`tool_observation`, `human_review`, ...). */
  method?: string;
}

/** A conclusion or guess of the agent's own. */
export interface AssertEvent extends EventTimes {
  op: 'assert';
  claim: string;
  text: string;
  class: 'inference' | 'hypothesis';
  source: string;
  /** Indexes of the earlier events it was derived from. */
  derived_from?: number[];
}

/** `claim` was replaced by claim `by`. */
export interface SupersedeEvent extends EventTimes {
  op: 'supersede';
  claim: string;
  by: string;
}

/** The record event `event` (an index into `events`) is withdrawn. */
export interface RetractEvent extends EventTimes {
  op: 'retract';
  claim: string;
  event: number;
}

/** The agent recalled the claim `times` times. */
export interface RecallEvent extends EventTimes {
  op: 'recall';
  claim: string;
  times: number;
}

export type ScenarioEvent = ObserveEvent | AssertEvent | SupersedeEvent | RetractEvent | RecallEvent;

/** The action the agent is about to take, decided at `at`. */
export interface ScenarioAct {
  at: string;
  claim: string;
  tool: string;
  risk: Risk;
  reversible: boolean;
  /** The entity the action touches: evidence about another subject does not verify it. */
  subject?: string;
  /** Extension: the action runs later than it is decided; events recorded in between are seen only by a re-check. */
  executes_at?: string;
}

/** One scenario. */
export interface Scenario {
  id: string;
  family: string;
  events: ScenarioEvent[];
  act: ScenarioAct;
  truth: Truth;
  why: string;
}

/** The error codes of @ewp/harm-bench. */
export const HARM_BENCH_ERROR_CODES = {
  SCENARIO_INVALID: 'a scenario line that is not JSON or breaks the scenario format (the line and the field are named)',
} as const satisfies ErrorCodeTable;

/** A scenario file refused: `line` (1-based) and `path` (`$.events[2].polarity`) name what is wrong. */
export class ScenarioError extends EwpError<keyof typeof HARM_BENCH_ERROR_CODES> {
  static override readonly marker: symbol = Symbol.for('ewp.error.ScenarioError');
  /** 1-based line number in the file. */
  readonly line: number;
  /** What is wrong, without the line and path. */
  readonly reason: string;
  constructor(line: number, path: string, reason: string) {
    super('SCENARIO_INVALID', `line ${line}: ${reason}`, { path });
    this.name = 'ScenarioError';
    this.line = line;
    this.reason = reason;
  }
}

const ORIGINS: readonly Origin[] = ['tool', 'sensor', 'document', 'person', 'agent'];
const VIAS: readonly Via[] = ['summary', 'partial_search'];

type Obj = Record<string, unknown>;

/** Reads one scenario object; every refusal names the line and the JSON path. */
class Reader {
  constructor(readonly line: number) {}

  fail(path: string, message: string): never {
    throw new ScenarioError(this.line, path, message);
  }

  object(v: unknown, path: string): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, 'must be a JSON object');
    return v as Obj;
  }

  only(o: Obj, path: string, allowed: readonly string[]): void {
    for (const k of Object.keys(o)) if (!allowed.includes(k)) this.fail(`${path}.${k}`, `unknown field (allowed: ${allowed.join(', ')})`);
  }

  text(o: Obj, key: string, path: string): string {
    const v = o[key];
    if (v === undefined) this.fail(`${path}.${key}`, 'is missing');
    if (typeof v !== 'string' || v.trim() === '') this.fail(`${path}.${key}`, 'must be a non-empty string');
    return v;
  }

  optText(o: Obj, key: string, path: string): string | undefined {
    return o[key] === undefined ? undefined : this.text(o, key, path);
  }

  instant(o: Obj, key: string, path: string): string {
    const v = this.text(o, key, path);
    if (typeof parseInstant(v) === 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) this.fail(`${path}.${key}`, `${JSON.stringify(v)} is not an ISO-8601 instant`);
    return v;
  }

  optInstant(o: Obj, key: string, path: string): string | undefined {
    return o[key] === undefined ? undefined : this.instant(o, key, path);
  }

  oneOf<T extends string>(o: Obj, key: string, path: string, values: readonly T[]): T {
    const v = this.text(o, key, path);
    if (!values.includes(v as T)) this.fail(`${path}.${key}`, `must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
    return v as T;
  }

  optOneOf<T extends string>(o: Obj, key: string, path: string, values: readonly T[]): T | undefined {
    return o[key] === undefined ? undefined : this.oneOf(o, key, path, values);
  }

  integer(o: Obj, key: string, path: string, min: number): number {
    const v = o[key];
    if (v === undefined) this.fail(`${path}.${key}`, 'is missing');
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) this.fail(`${path}.${key}`, `must be an integer >= ${min}`);
    return v;
  }

  boolean(o: Obj, key: string, path: string): boolean {
    const v = o[key];
    if (v === undefined) this.fail(`${path}.${key}`, 'is missing');
    if (typeof v !== 'boolean') this.fail(`${path}.${key}`, 'must be true or false');
    return v;
  }
}

const TIMES = ['at', 'recorded_at'];

function readEvent(r: Reader, v: unknown, path: string, index: number): ScenarioEvent {
  const o = r.object(v, path);
  const op = r.oneOf(o, 'op', path, ['observe', 'assert', 'supersede', 'retract', 'recall'] as const);
  const at = r.instant(o, 'at', path);
  const recorded_at = r.optInstant(o, 'recorded_at', path);
  const times: EventTimes = recorded_at === undefined ? { at } : { at, recorded_at };
  const claim = r.text(o, 'claim', path);
  const earlier = (value: unknown, p: string): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= index)
      r.fail(p, `must be the index of an earlier event (0..${index - 1})`);
    return value;
  };
  switch (op) {
    case 'observe': {
      r.only(o, path, ['op', 'claim', 'text', 'source', 'polarity', 'subject', 'via', 'origin', 'method', ...TIMES]);
      const e: ObserveEvent = {
        ...times,
        op,
        claim,
        text: r.text(o, 'text', path),
        source: r.text(o, 'source', path),
        polarity: r.oneOf(o, 'polarity', path, POLARITIES),
      };
      const subject = r.optText(o, 'subject', path);
      const via = r.optOneOf(o, 'via', path, VIAS);
      const origin = r.optOneOf(o, 'origin', path, ORIGINS);
      const method = r.optText(o, 'method', path);
      if (subject !== undefined) e.subject = subject;
      if (via !== undefined) e.via = via;
      if (origin !== undefined) e.origin = origin;
      if (method !== undefined) e.method = method;
      return e;
    }
    case 'assert': {
      r.only(o, path, ['op', 'claim', 'text', 'class', 'source', 'derived_from', ...TIMES]);
      const e: AssertEvent = {
        ...times,
        op,
        claim,
        text: r.text(o, 'text', path),
        class: r.oneOf(o, 'class', path, ['inference', 'hypothesis'] as const),
        source: r.text(o, 'source', path),
      };
      if (o.derived_from !== undefined) {
        if (!Array.isArray(o.derived_from)) r.fail(`${path}.derived_from`, 'must be an array of earlier event indexes');
        e.derived_from = o.derived_from.map((d, i) => earlier(d, `${path}.derived_from[${i}]`));
      }
      return e;
    }
    case 'supersede':
      r.only(o, path, ['op', 'claim', 'by', ...TIMES]);
      return { ...times, op, claim, by: r.text(o, 'by', path) };
    case 'retract':
      r.only(o, path, ['op', 'claim', 'event', ...TIMES]);
      return { ...times, op, claim, event: earlier(o.event, `${path}.event`) };
    case 'recall':
      r.only(o, path, ['op', 'claim', 'times', ...TIMES]);
      return { ...times, op, claim, times: r.integer(o, 'times', path, 1) };
  }
}

/** The first event that introduces each claim (observe or assert): where its text comes from. */
export function claimTexts(s: Scenario): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of s.events) if ((e.op === 'observe' || e.op === 'assert') && !out.has(e.claim)) out.set(e.claim, e.text);
  return out;
}

/** Decodes one scenario object (`line` is used in refusals). */
export function decodeScenario(value: unknown, line: number): Scenario {
  const r: Reader = new Reader(line);
  const o = r.object(value, '$');
  r.only(o, '$', ['id', 'family', 'events', 'act', 'truth', 'why']);
  const id = r.text(o, 'id', '$');
  const family = r.text(o, 'family', '$');
  if (!Array.isArray(o.events)) r.fail('$.events', o.events === undefined ? 'is missing' : 'must be an array of events');
  if (o.events.length === 0) r.fail('$.events', 'must hold at least one event');
  const events = o.events.map((e, i) => readEvent(r, e, `$.events[${i}]`, i));
  const a = r.object(o.act, '$.act');
  r.only(a, '$.act', ['at', 'claim', 'tool', 'risk', 'reversible', 'subject', 'executes_at']);
  const act: ScenarioAct = {
    at: r.instant(a, 'at', '$.act'),
    claim: r.text(a, 'claim', '$.act'),
    tool: r.text(a, 'tool', '$.act'),
    risk: r.oneOf(a, 'risk', '$.act', RISKS),
    reversible: r.boolean(a, 'reversible', '$.act'),
  };
  const subject = r.optText(a, 'subject', '$.act');
  const executesAt = r.optInstant(a, 'executes_at', '$.act');
  if (subject !== undefined) act.subject = subject;
  if (executesAt !== undefined) {
    if (Date.parse(executesAt) < Date.parse(act.at)) r.fail('$.act.executes_at', 'must not be earlier than act.at');
    act.executes_at = executesAt;
  }
  const scenario: Scenario = {
    id,
    family,
    events,
    act,
    truth: r.oneOf(o, 'truth', '$', ['act', 'hold'] as const),
    why: r.text(o, 'why', '$'),
  };
  const known = claimTexts(scenario);
  if (!known.has(act.claim)) r.fail('$.act.claim', `no observe or assert event introduces claim ${JSON.stringify(act.claim)}`);
  for (const [i, e] of events.entries()) {
    if (e.op === 'supersede' && !known.has(e.by)) r.fail(`$.events[${i}].by`, `no observe or assert event introduces claim ${JSON.stringify(e.by)}`);
    if (e.op === 'retract') {
      const target = events[e.event]!;
      if (target.op !== 'observe' && target.op !== 'assert') r.fail(`$.events[${i}].event`, 'must name an observe or assert event');
      if (target.claim !== e.claim) r.fail(`$.events[${i}].claim`, `event ${e.event} is about claim ${JSON.stringify(target.claim)}`);
    }
  }
  return scenario;
}

/**
 * Decodes a scenario file: one JSON object per line; blank lines and lines starting with `#` are
 * skipped. Ids must be unique.
 * @throws {ScenarioError} naming the 1-based line and the field.
 */
export function decodeScenarios(text: string): Scenario[] {
  const out: Scenario[] = [];
  const ids = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new ScenarioError(i + 1, '$', `not JSON (${(error as Error).message})`);
    }
    const s = decodeScenario(value, i + 1);
    const seen = ids.get(s.id);
    if (seen !== undefined) throw new ScenarioError(i + 1, '$.id', `id ${JSON.stringify(s.id)} is already used on line ${seen}`);
    ids.set(s.id, i + 1);
    out.push(s);
  }
  if (out.length === 0) throw new ScenarioError(1, '$', 'the file holds no scenario');
  return out;
}

/** When an event entered memory. */
export function recordedAt(e: ScenarioEvent): string {
  return e.recorded_at ?? e.at;
}

/** Milliseconds of an ISO instant (scenario times are validated on decode). */
export function ms(at: string): number {
  return Date.parse(at);
}
