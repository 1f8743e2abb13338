import { type InvalidViewCode, InvalidEvidenceView } from '../errors.js';
import { JsonFloat, parseJson } from '../json/parse-json.js';
import {
  type Assertion,
  type CheckResult,
  type Conflict,
  type ConflictStatus,
  DEFAULT_FRESHNESS_SECONDS,
  type EvidenceItem,
  type EvidenceView,
  type LineageEdge,
  type LineageKind,
  MAX_FRESHNESS_SECONDS,
  type Polarity,
  type SourceRef,
  type VerificationCheck,
} from '../types.js';
import { pythonStr } from './python-text.js';
import { StringTable } from './string-table.js';
import { deriveViewId } from './view-id.js';

type Json = unknown;
type JsonObject = Record<string, Json>;

const POLARITIES: ReadonlySet<string> = new Set<Polarity>(['supports', 'opposes']);
const RESULTS: ReadonlySet<string> = new Set<CheckResult>(['supports', 'opposes', 'inconclusive']);
const STATUSES: ReadonlySet<string> = new Set<ConflictStatus>(['open', 'resolved']);
const KINDS: ReadonlySet<string> = new Set<LineageKind>(['derived_from', 'supersedes', 'superseded_by', 'parent_source']);

/**
 * Where a record sits (`$.checks[3].source`), rendered only when a refusal needs it: building a
 * path string per record is most of the decoder's garbage on large views. One mutable Loc is
 * reused per record array; a refusal throws at once, so the path it renders is always current.
 */
class Loc {
  i = 0;
  constructor(
    private readonly prefix: string,
    private readonly suffix = '',
  ) {}
  toString(): string {
    return `${this.prefix}[${this.i}]${this.suffix}`;
  }
}
type Path = string | Loc;

function refuse(code: InvalidViewCode, rule: string, path: Path, message: string): never {
  throw new InvalidEvidenceView(code, rule, String(path), message);
}

function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

function describe(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof JsonFloat) return `the float ${v.value}`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'bigint') return `the integer ${v}`;
  return `${typeof v} ${String(v)}`;
}

/** A field is missing when absent or null (SPEC §3.2). */
function get(o: JsonObject, key: string): Json {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function requiredText(o: JsonObject, key: string, base: Path, rule = 'S5'): string {
  const v = get(o, key);
  if (v === undefined || v === null) refuse('MISSING_FIELD', rule, `${base}.${key}`, 'required field is missing');
  const s = pythonStr(v);
  if (s === undefined) {
    refuse('UNSUPPORTED_TEXT_VALUE', '§4.3', `${base}.${key}`, `text field holds ${describe(v)}; only strings and scalars are accepted`);
  }
  return s;
}

function optionalText(o: JsonObject, key: string, base: Path): string | null {
  const v = get(o, key);
  if (v === undefined || v === null) return null;
  const s = pythonStr(v);
  if (s === undefined) {
    refuse('UNSUPPORTED_TEXT_VALUE', '§4.3', `${base}.${key}`, `text field holds ${describe(v)}; only strings and scalars are accepted`);
  }
  return s;
}

function enumValue(o: JsonObject, key: string, allowed: ReadonlySet<string>, base: Path): string {
  const v = get(o, key);
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'S5', `${base}.${key}`, 'required field is missing');
  if (typeof v !== 'string' || !allowed.has(v)) {
    refuse('UNKNOWN_ENUM_VALUE', '§4.4', `${base}.${key}`, `${describe(v)} is not one of ${[...allowed].join(', ')}`);
  }
  return v;
}

function idList(v: Json, path: Path, rule: string): string[] {
  if (!Array.isArray(v)) refuse('NOT_AN_ID_LIST', rule, path, `expected a list of non-empty strings, got ${describe(v)}`);
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    if (typeof e !== 'string' || e === '') {
      refuse('NOT_AN_ID_LIST', rule, `${path}[${i}]`, `expected a non-empty string, got ${describe(e)}`);
    }
  }
  return v.slice() as string[];
}

function optionalIdList(o: JsonObject, key: string, path: Path, rule: string): string[] {
  const v = get(o, key);
  return v === undefined || v === null ? [] : idList(v, path, rule);
}

function recordArray(view: JsonObject, key: string): JsonObject[] {
  const v = get(view, key);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) refuse('WRONG_TYPE', 'S4', `$.${key}`, `expected an array, got ${describe(v)}`);
  for (let i = 0; i < v.length; i++) {
    if (!isObject(v[i])) refuse('NOT_AN_OBJECT', 'S4', `$.${key}[${i}]`, `expected an object, got ${describe(v[i])}`);
  }
  return v as JsonObject[];
}

/** `x` names P when x = P or x starts with `P:` (SPEC §4.5). */
export function namesProposition(x: string, p: string): boolean {
  return x === p || (x.length > p.length && x.charCodeAt(p.length) === 0x3a && x.startsWith(p));
}

function source(o: JsonObject, path: Path): SourceRef {
  const v = get(o, 'source');
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'S5', path, 'required field is missing');
  if (!isObject(v)) refuse('NOT_AN_OBJECT', 'S5', path, `expected an object, got ${describe(v)}`);
  return {
    source_id: requiredText(v, 'source_id', path),
    lineage_id: requiredText(v, 'lineage_id', path),
    origin_type: requiredText(v, 'origin_type', path),
    origin_locator: requiredText(v, 'origin_locator', path),
    snapshot_id: requiredText(v, 'snapshot_id', path),
    content_hash: requiredText(v, 'content_hash', path),
    observed_at: requiredText(v, 'observed_at', path),
    extractor_id: optionalText(v, 'extractor_id', path),
    parent_source_id: optionalText(v, 'parent_source_id', path),
  };
}

function recordProposition(o: JsonObject, p: string, base: Path, rule: string): string {
  const v = get(o, 'proposition_id');
  if (v === undefined || v === null) return p;
  const s = requiredText(o, 'proposition_id', base);
  if (!namesProposition(s, p)) {
    refuse('UNBOUND_PROPOSITION', rule, `${base}.proposition_id`, `${JSON.stringify(s)} does not name ${JSON.stringify(p)} or a variant ${JSON.stringify(`${p}:…`)}`);
  }
  return s;
}

function confidence(o: JsonObject, base: Path): number {
  const v = get(o, 'assertion_confidence');
  const path = `${base}.assertion_confidence`;
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'S5', path, 'required field is missing');
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (v instanceof JsonFloat) n = v.value;
  else refuse('WRONG_TYPE', 'T9', path, `expected a number, got ${describe(v)}`);
  if (!Number.isFinite(n)) refuse('NOT_FINITE', 'T9', path, `expected a finite number, got ${describe(v)}`);
  return n;
}

/** Python truthiness of a decoded JSON value (for `Conflict.note`, SPEC §3.7). */
function isFalsy(v: Json): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (v instanceof JsonFloat) return v.value === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

const MAX_META_DEPTH = 1_000;

/**
 * Deep copy of adapter_meta into plain JSON values (no JsonFloat, no bigint). Anything JSON
 * cannot hold (functions, undefined, class instances, cycles, absurd depth) is refused.
 */
function plainJson(v: Json, path: string, depth: number): Json {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof JsonFloat) return v.value;
  if (depth > MAX_META_DEPTH) refuse('WRONG_TYPE', 'S6', path, `nested deeper than ${MAX_META_DEPTH} levels (or cyclic)`);
  if (Array.isArray(v)) return v.map((x, i) => plainJson(x, `${path}[${i}]`, depth + 1));
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      const out: JsonObject = {};
      for (const k of Object.keys(v)) {
        const value = plainJson((v as JsonObject)[k], `${path}.${k}`, depth + 1);
        Object.defineProperty(out, k, { value, writable: true, enumerable: true, configurable: true });
      }
      return out;
    }
  }
  return refuse('WRONG_TYPE', 'S6', path, `${describe(v)} is not a JSON value`);
}

function viewIdOf(v: Json): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isInteger(v)) return Number.isSafeInteger(v) ? String(v === 0 ? 0 : v) : BigInt(v).toString();
  return refuse('WRONG_TYPE', 'S3', '$.view_id', `expected a string or an integer, got ${describe(v)}`);
}

function freshness(v: Json): number {
  if (v === undefined || v === null) return DEFAULT_FRESHNESS_SECONDS;
  const path = '$.freshness_policy_seconds';
  let n: number;
  if (typeof v === 'number' && Number.isInteger(v)) n = v;
  else if (typeof v === 'bigint') {
    if (v < 0n || v > BigInt(MAX_FRESHNESS_SECONDS)) refuse('OUT_OF_RANGE', 'T6', path, `${v} is outside 0 … ${MAX_FRESHNESS_SECONDS}`);
    n = Number(v);
  } else refuse('WRONG_TYPE', 'T6', path, `expected an integer number of seconds, got ${describe(v)}`);
  if (n < 0 || n > MAX_FRESHNESS_SECONDS) refuse('OUT_OF_RANGE', 'T6', path, `${n} is outside 0 … ${MAX_FRESHNESS_SECONDS}`);
  return n === 0 ? 0 : n;
}

/**
 * Record ids of one kind, checked for duplicates (I1–I4) while the records are decoded. The
 * refusal is raised only after every record decoded, as the spec orders it, and names the
 * first record whose id was used before.
 */
class UniqueIds {
  private readonly table: StringTable;
  /** Index of the first record whose id repeats an earlier one, or -1. */
  duplicate = -1;
  private duplicateId = '';
  constructor(count: number) {
    this.table = new StringTable(count);
  }
  add(id: string, i: number): void {
    if (this.duplicate < 0 && this.table.addOrFind(id) >= 0) {
      this.duplicate = i;
      this.duplicateId = id;
    }
  }
  check(kind: string, rule: string): void {
    const i = this.duplicate;
    if (i >= 0) refuse('DUPLICATE_ID', rule, `$.${kind}[${i}]`, `id ${JSON.stringify(this.duplicateId)} is used twice`);
  }
}

function sameSource(a: SourceRef, b: SourceRef): boolean {
  return (
    a.source_id === b.source_id &&
    a.lineage_id === b.lineage_id &&
    a.origin_type === b.origin_type &&
    a.origin_locator === b.origin_locator &&
    a.snapshot_id === b.snapshot_id &&
    a.content_hash === b.content_hash &&
    a.observed_at === b.observed_at &&
    a.extractor_id === b.extractor_id &&
    a.parent_source_id === b.parent_source_id
  );
}

/** Every SourceRef of a view by source_id: one source_id, one SourceRef (I5). */
class SourceBinding {
  private readonly table: StringTable;
  /** The first SourceRef seen per source_id, by the table's key index. */
  private readonly first: SourceRef[] = [];
  constructor(count: number) {
    this.table = new StringTable(count);
  }
  bind(s: SourceRef, path: Path): SourceRef {
    const k = this.table.addOrFind(s.source_id);
    if (k < 0) this.first.push(s);
    else if (!sameSource(this.first[k]!, s)) {
      refuse('SOURCE_REF_MISMATCH', 'I5', path, `source_id ${JSON.stringify(s.source_id)} is used with two different SourceRefs`);
    }
    return s;
  }
}

/**
 * Decode and validate an EvidenceView given as a JavaScript value (SPEC §3–§4). Every rule of
 * the spec refuses the whole view with an {@link InvalidEvidenceView} naming the JSON path; no
 * record is filtered and no field repaired. A missing, `null` or `""` `view_id` becomes the
 * derived id (SPEC §8).
 *
 * Values from {@link parseJson} keep Python's number distinctions; for plain JS values an
 * integral number counts as an integer token.
 */
export function decodeView(input: unknown): EvidenceView {
  if (!isObject(input)) refuse('NOT_AN_OBJECT', 'S1', '$', `an EvidenceView must be a JSON object, got ${describe(input)}`);
  const view = input;

  const pv = get(view, 'proposition_id');
  if (pv === undefined || pv === null) refuse('MISSING_FIELD', 'S2', '$.proposition_id', 'required field is missing');
  if (typeof pv !== 'string') refuse('WRONG_TYPE', 'S2', '$.proposition_id', `expected a string, got ${describe(pv)}`);
  if (pv === '') refuse('EMPTY_STRING', 'S2', '$.proposition_id', 'must not be empty');
  const p = pv;

  const viewId = viewIdOf(get(view, 'view_id'));

  const rawAssertions = recordArray(view, 'assertions');
  const rawEvidence = recordArray(view, 'evidence');
  const rawLineage = recordArray(view, 'lineage');
  const rawConflicts = recordArray(view, 'conflicts');
  const rawChecks = recordArray(view, 'checks');

  const baseA = new Loc('$.assertions');
  const srcA = new Loc('$.assertions', '.source');
  const baseE = new Loc('$.evidence');
  const srcE = new Loc('$.evidence', '.source');
  const baseC = new Loc('$.checks');
  const srcC = new Loc('$.checks', '.source');
  const subjC = new Loc('$.checks', '.subjects');
  const baseF = new Loc('$.conflicts');
  const partF = new Loc('$.conflicts', '.proposition_ids');
  const baseL = new Loc('$.lineage');
  const sources = new SourceBinding(rawAssertions.length + rawEvidence.length + rawChecks.length);
  const idsA = new UniqueIds(rawAssertions.length);
  const idsE = new UniqueIds(rawEvidence.length);
  const idsC = new UniqueIds(rawChecks.length);
  const idsF = new UniqueIds(rawConflicts.length);

  const assertions: Assertion[] = new Array(rawAssertions.length);
  for (let i = 0; i < rawAssertions.length; i++) {
    const r = rawAssertions[i]!;
    baseA.i = i;
    srcA.i = i;
    const base = baseA;
    const src = srcA;
    assertions[i] = {
      assertion_id: requiredText(r, 'assertion_id', base),
      proposition_id: recordProposition(r, p, base, 'B1'),
      text: requiredText(r, 'text', base),
      asserted_by: requiredText(r, 'asserted_by', base),
      assertion_confidence: confidence(r, base),
      source: sources.bind(source(r, src), src),
      asserted_at: requiredText(r, 'asserted_at', base),
    };
    idsA.add(assertions[i]!.assertion_id, i);
  }

  const evidence: EvidenceItem[] = new Array(rawEvidence.length);
  for (let i = 0; i < rawEvidence.length; i++) {
    const r = rawEvidence[i]!;
    baseE.i = i;
    srcE.i = i;
    const base = baseE;
    const src = srcE;
    evidence[i] = {
      evidence_id: requiredText(r, 'evidence_id', base),
      proposition_id: recordProposition(r, p, base, 'B2'),
      polarity: enumValue(r, 'polarity', POLARITIES, base) as Polarity,
      source: sources.bind(source(r, src), src),
      content: requiredText(r, 'content', base),
      observed_at: requiredText(r, 'observed_at', base),
    };
    idsE.add(evidence[i]!.evidence_id, i);
  }

  const checks: VerificationCheck[] = new Array(rawChecks.length);
  for (let i = 0; i < rawChecks.length; i++) {
    const r = rawChecks[i]!;
    baseC.i = i;
    srcC.i = i;
    subjC.i = i;
    const base = baseC;
    const src = srcC;
    checks[i] = {
      check_id: requiredText(r, 'check_id', base),
      method: requiredText(r, 'method', base),
      scope: requiredText(r, 'scope', base),
      source: sources.bind(source(r, src), src),
      observed_at: requiredText(r, 'observed_at', base),
      result: enumValue(r, 'result', RESULTS, base) as CheckResult,
      subjects: optionalIdList(r, 'subjects', subjC, 'T2'),
    };
    idsC.add(checks[i]!.check_id, i);
  }

  const conflicts: Conflict[] = new Array(rawConflicts.length);
  for (let i = 0; i < rawConflicts.length; i++) {
    const r = rawConflicts[i]!;
    baseF.i = i;
    partF.i = i;
    const base = baseF;
    const ids = optionalIdList(r, 'proposition_ids', partF, 'T4');
    if (ids.length === 0) refuse('NOT_AN_ID_LIST', 'T4', partF, 'a conflict must name at least one proposition');
    if (!ids.some((x) => namesProposition(x, p))) {
      refuse('UNBOUND_PROPOSITION', 'B3', partF, `no participant names ${JSON.stringify(p)}`);
    }
    const note = get(r, 'note');
    conflicts[i] = {
      conflict_id: requiredText(r, 'conflict_id', base),
      proposition_ids: ids,
      status: enumValue(r, 'status', STATUSES, base) as ConflictStatus,
      note: isFalsy(note) ? '' : requiredText(r, 'note', base),
    };
    idsF.add(conflicts[i]!.conflict_id, i);
  }

  const lineage: LineageEdge[] = new Array(rawLineage.length);
  for (let i = 0; i < rawLineage.length; i++) {
    const r = rawLineage[i]!;
    baseL.i = i;
    const base = baseL;
    lineage[i] = {
      from_id: endpoint(r, 'from_id', base),
      to_id: endpoint(r, 'to_id', base),
      kind: enumValue(r, 'kind', KINDS, base) as LineageKind,
    };
  }

  idsA.check('assertions', 'I1');
  idsE.check('evidence', 'I2');
  idsC.check('checks', 'I3');
  idsF.check('conflicts', 'I4');

  const omitted = optionalIdList(view, 'omitted_sources', '$.omitted_sources', 'T3');
  const scope = get(view, 'retrieval_scope');
  if (scope !== undefined && scope !== null && typeof scope !== 'string') {
    refuse('WRONG_TYPE', 'T8', '$.retrieval_scope', `expected a string, got ${describe(scope)}`);
  }
  const degraded = get(view, 'degraded');
  if (degraded !== undefined && degraded !== null && typeof degraded !== 'boolean') {
    refuse('WRONG_TYPE', 'T7', '$.degraded', `expected true or false, got ${describe(degraded)}`);
  }
  const meta = get(view, 'adapter_meta');
  if (meta !== undefined && meta !== null && !isObject(meta)) {
    refuse('WRONG_TYPE', 'S6', '$.adapter_meta', `expected an object, got ${describe(meta)}`);
  }

  const decoded: EvidenceView = {
    proposition_id: p,
    view_id: '',
    assertions,
    evidence,
    lineage,
    conflicts,
    checks,
    omitted_sources: omitted,
    retrieval_scope: typeof scope === 'string' ? scope : 'complete',
    degraded: degraded === true,
    freshness_policy_seconds: freshness(get(view, 'freshness_policy_seconds')),
    adapter_meta: meta === undefined || meta === null ? {} : (plainJson(meta, '$.adapter_meta', 0) as Record<string, unknown>),
    subjects: optionalIdList(view, 'subjects', '$.subjects', 'T1'),
  };
  decoded.view_id = viewId ?? deriveViewId(decoded);
  return decoded;
}

function endpoint(o: JsonObject, key: string, base: Path): string {
  const v = get(o, key);
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'T5', `${base}.${key}`, 'required field is missing');
  if (typeof v !== 'string') refuse('WRONG_TYPE', 'T5', `${base}.${key}`, `expected a non-empty string, got ${describe(v)}`);
  if (v === '') refuse('EMPTY_STRING', 'T5', `${base}.${key}`, 'must not be empty');
  return v;
}

/** {@link decodeView} on JSON text, parsed with Python's number semantics ({@link parseJson}). */
export function decodeViewJson(text: string): EvidenceView {
  return decodeView(parseJson(text));
}
