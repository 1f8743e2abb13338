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
  CHECK_RESULTS,
  CONFLICT_STATUSES,
  LINEAGE_KINDS,
  POLARITIES,
} from '@ewp/spec';
import { pythonStr } from './python-text.js';
import { firstOccurrences } from './string-table.js';
import { deriveViewId } from './view-id.js';

type Json = unknown;
type JsonObject = Record<string, Json>;

const POLARITY_SET: ReadonlySet<string> = new Set<Polarity>(POLARITIES);
const RESULTS: ReadonlySet<string> = new Set<CheckResult>(CHECK_RESULTS);
const STATUSES: ReadonlySet<string> = new Set<ConflictStatus>(CONFLICT_STATUSES);
const KINDS: ReadonlySet<string> = new Set<LineageKind>(LINEAGE_KINDS);

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

const OBJECT_PROTO: object = Object.prototype;

/**
 * Whether a plain object's fields may be read as `o[key]`: true unless something defined one of
 * the field names the decoder reads from a record or a source on `Object.prototype` (then every
 * read checks ownership). One literal test per name: each is its own inline cache, which the
 * optimizer folds while the prototype is unchanged (a loop over a list of names would not fold).
 */
function prototypeClean(): boolean {
  const p = OBJECT_PROTO;
  return !(
    'assertion_id' in p ||
    'proposition_id' in p ||
    'text' in p ||
    'asserted_by' in p ||
    'assertion_confidence' in p ||
    'source' in p ||
    'asserted_at' in p ||
    'evidence_id' in p ||
    'polarity' in p ||
    'content' in p ||
    'observed_at' in p ||
    'check_id' in p ||
    'method' in p ||
    'scope' in p ||
    'result' in p ||
    'subjects' in p ||
    'conflict_id' in p ||
    'proposition_ids' in p ||
    'status' in p ||
    'note' in p ||
    'from_id' in p ||
    'to_id' in p ||
    'kind' in p ||
    'source_id' in p ||
    'lineage_id' in p ||
    'origin_type' in p ||
    'origin_locator' in p ||
    'snapshot_id' in p ||
    'content_hash' in p ||
    'extractor_id' in p ||
    'parent_source_id' in p
  );
}

/**
 * Whether `o`'s fields may be read as `o[key]`: its prototype is `Object.prototype` and
 * `clean` (from {@link prototypeClean}) holds, so a property it has is its own. Checked once
 * per record, instead of an `Object.hasOwn` call per field (a builtin call the optimizer does
 * not inline: a tenth of the decoder's time on large views).
 */
function plain(o: JsonObject, clean: boolean): boolean {
  return clean && Object.getPrototypeOf(o) === OBJECT_PROTO;
}

/**
 * A field is missing when absent or null (docs/spec/protocol.md §3.2). Only own properties count; `own` says
 * that any property of `o` is own ({@link plain}).
 */
function get(o: JsonObject, own: boolean, key: string): Json {
  if (own) return o[key];
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function requiredText(o: JsonObject, own: boolean, key: string, base: Path, rule = 'S5'): string {
  // Small enough to be inlined where `key` is a constant: the read becomes a named property load.
  const v = own ? o[key] : get(o, false, key);
  return typeof v === 'string' ? v : requiredTextOf(v, key, base, rule);
}

function requiredTextOf(v: Json, key: string, base: Path, rule: string): string {
  if (v === undefined || v === null) refuse('MISSING_FIELD', rule, `${base}.${key}`, 'required field is missing');
  const s = pythonStr(v);
  if (s === undefined) {
    refuse('UNSUPPORTED_TEXT_VALUE', '§4.3', `${base}.${key}`, `text field holds ${describe(v)}; only strings and scalars are accepted`);
  }
  return s;
}

function optionalText(o: JsonObject, own: boolean, key: string, base: Path): string | null {
  const v = own ? o[key] : get(o, false, key);
  return typeof v === 'string' ? v : optionalTextOf(v, key, base);
}

function optionalTextOf(v: Json, key: string, base: Path): string | null {
  if (v === undefined || v === null) return null;
  const s = pythonStr(v);
  if (s === undefined) {
    refuse('UNSUPPORTED_TEXT_VALUE', '§4.3', `${base}.${key}`, `text field holds ${describe(v)}; only strings and scalars are accepted`);
  }
  return s;
}

function enumValue(o: JsonObject, own: boolean, key: string, allowed: ReadonlySet<string>, base: Path): string {
  const v = own ? o[key] : get(o, false, key);
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

function optionalIdList(o: JsonObject, own: boolean, key: string, path: Path, rule: string): string[] {
  const v = own ? o[key] : get(o, false, key);
  return v === undefined || v === null ? [] : idList(v, path, rule);
}

function recordArray(view: JsonObject, key: string): JsonObject[] {
  const v = get(view, false, key);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) refuse('WRONG_TYPE', 'S4', `$.${key}`, `expected an array, got ${describe(v)}`);
  for (let i = 0; i < v.length; i++) {
    if (!isObject(v[i])) refuse('NOT_AN_OBJECT', 'S4', `$.${key}[${i}]`, `expected an object, got ${describe(v[i])}`);
  }
  return v as JsonObject[];
}

/** `x` names P when x = P or x starts with `P:` (docs/spec/protocol.md §4.5). */
export function namesProposition(x: string, p: string): boolean {
  return x === p || (x.length > p.length && x.charCodeAt(p.length) === 0x3a && x.startsWith(p));
}

function source(o: JsonObject, own: boolean, path: Path, clean: boolean): SourceRef {
  const v = own ? o.source : get(o, false, 'source');
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'S5', path, 'required field is missing');
  if (!isObject(v)) refuse('NOT_AN_OBJECT', 'S5', path, `expected an object, got ${describe(v)}`);
  const vo = plain(v, clean);
  return {
    source_id: requiredText(v, vo, 'source_id', path),
    lineage_id: requiredText(v, vo, 'lineage_id', path),
    origin_type: requiredText(v, vo, 'origin_type', path),
    origin_locator: requiredText(v, vo, 'origin_locator', path),
    snapshot_id: requiredText(v, vo, 'snapshot_id', path),
    content_hash: requiredText(v, vo, 'content_hash', path),
    observed_at: requiredText(v, vo, 'observed_at', path),
    extractor_id: optionalText(v, vo, 'extractor_id', path),
    parent_source_id: optionalText(v, vo, 'parent_source_id', path),
  };
}

function recordProposition(o: JsonObject, own: boolean, p: string, base: Path, rule: string): string {
  const v = own ? o.proposition_id : get(o, false, 'proposition_id');
  if (v === undefined || v === null) return p;
  const s = typeof v === 'string' ? v : requiredTextOf(v, 'proposition_id', base, 'S5');
  if (!namesProposition(s, p)) {
    refuse(
      'UNBOUND_PROPOSITION',
      rule,
      `${base}.proposition_id`,
      `${JSON.stringify(s)} does not name ${JSON.stringify(p)} or a variant ${JSON.stringify(`${p}:…`)}`,
    );
  }
  return s;
}

function confidence(o: JsonObject, own: boolean, base: Path): number {
  const v = own ? o.assertion_confidence : get(o, false, 'assertion_confidence');
  // The path is rendered only for a refusal: one string per assertion otherwise.
  const path = () => `${base}.assertion_confidence`;
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'S5', path(), 'required field is missing');
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (v instanceof JsonFloat) n = v.value;
  else refuse('WRONG_TYPE', 'T9', path(), `expected a number, got ${describe(v)}`);
  if (!Number.isFinite(n)) refuse('NOT_FINITE', 'T9', path(), `expected a finite number, got ${describe(v)}`);
  return n;
}

/** Python truthiness of a decoded JSON value (for `Conflict.note`, docs/spec/protocol.md §3.7). */
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

/** The first record whose id an earlier record of its kind used (I1–I4). */
function checkUnique(ids: string[], kind: string, rule: string): void {
  if (ids.length < 2) return;
  const first = firstOccurrences(ids);
  for (let i = 0; i < ids.length; i++) {
    if (first[i] !== i) refuse('DUPLICATE_ID', rule, `$.${kind}[${i}]`, `id ${JSON.stringify(ids[i])} is used twice`);
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

/**
 * Every SourceRef of a view, in record order (assertions, evidence, checks): one source_id,
 * one SourceRef (I5). The fast pass checks I5 for all of them at once after the records are
 * decoded ({@link checkAll}); the exact pass, run only to name a refusal, checks each one as
 * its record is decoded, so that the refusal is the one the spec's record order meets first.
 */
class Sources {
  readonly refs: SourceRef[];
  private readonly exact: Map<string, SourceRef> | null;
  constructor(count: number, exact: boolean) {
    this.refs = new Array(count);
    this.exact = exact ? new Map() : null;
  }
  add(s: SourceRef, at: number, path: Path): SourceRef {
    this.refs[at] = s;
    const seen = this.exact;
    if (seen !== null) {
      const prior = seen.get(s.source_id);
      if (prior === undefined) seen.set(s.source_id, s);
      else if (!sameSource(prior, s)) sourceMismatch(s, path);
    }
    return s;
  }
  checkAll(assertions: number, evidence: number): void {
    const refs = this.refs;
    if (this.exact !== null || refs.length < 2) return;
    const ids: string[] = new Array(refs.length);
    for (let i = 0; i < refs.length; i++) ids[i] = refs[i]!.source_id;
    const first = firstOccurrences(ids);
    for (let i = 0; i < refs.length; i++) {
      const j = first[i]!;
      if (j !== i && !sameSource(refs[j]!, refs[i]!)) {
        const path =
          i < assertions
            ? `$.assertions[${i}].source`
            : i < assertions + evidence
              ? `$.evidence[${i - assertions}].source`
              : `$.checks[${i - assertions - evidence}].source`;
        sourceMismatch(refs[i]!, path);
      }
    }
  }
}

function sourceMismatch(s: SourceRef, path: Path): never {
  return refuse('SOURCE_REF_MISMATCH', 'I5', path, `source_id ${JSON.stringify(s.source_id)} is used with two different SourceRefs`);
}

// One function per record kind: each gets its own inlining budget, so the field reads and
// checks inline into the loop with constant keys.

function decodeAssertions(raw: JsonObject[], p: string, clean: boolean, sources: Sources, ids: string[]): Assertion[] {
  const base = new Loc('$.assertions');
  const src = new Loc('$.assertions', '.source');
  const out: Assertion[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    base.i = i;
    src.i = i;
    const own = plain(r, clean);
    const a: Assertion = {
      assertion_id: requiredText(r, own, 'assertion_id', base),
      proposition_id: recordProposition(r, own, p, base, 'B1'),
      text: requiredText(r, own, 'text', base),
      asserted_by: requiredText(r, own, 'asserted_by', base),
      assertion_confidence: confidence(r, own, base),
      source: sources.add(source(r, own, src, clean), i, src),
      asserted_at: requiredText(r, own, 'asserted_at', base),
    };
    out[i] = a;
    ids[i] = a.assertion_id;
  }
  return out;
}

function decodeEvidence(raw: JsonObject[], p: string, clean: boolean, sources: Sources, at: number, ids: string[]): EvidenceItem[] {
  const base = new Loc('$.evidence');
  const src = new Loc('$.evidence', '.source');
  const out: EvidenceItem[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    base.i = i;
    src.i = i;
    const own = plain(r, clean);
    const e: EvidenceItem = {
      evidence_id: requiredText(r, own, 'evidence_id', base),
      proposition_id: recordProposition(r, own, p, base, 'B2'),
      polarity: enumValue(r, own, 'polarity', POLARITY_SET, base) as Polarity,
      source: sources.add(source(r, own, src, clean), at + i, src),
      content: requiredText(r, own, 'content', base),
      observed_at: requiredText(r, own, 'observed_at', base),
    };
    out[i] = e;
    ids[i] = e.evidence_id;
  }
  return out;
}

function decodeChecks(raw: JsonObject[], clean: boolean, sources: Sources, at: number, ids: string[]): VerificationCheck[] {
  const base = new Loc('$.checks');
  const src = new Loc('$.checks', '.source');
  const subj = new Loc('$.checks', '.subjects');
  const out: VerificationCheck[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    base.i = i;
    src.i = i;
    subj.i = i;
    const own = plain(r, clean);
    const c: VerificationCheck = {
      check_id: requiredText(r, own, 'check_id', base),
      method: requiredText(r, own, 'method', base),
      scope: requiredText(r, own, 'scope', base),
      source: sources.add(source(r, own, src, clean), at + i, src),
      observed_at: requiredText(r, own, 'observed_at', base),
      result: enumValue(r, own, 'result', RESULTS, base) as CheckResult,
      subjects: optionalIdList(r, own, 'subjects', subj, 'T2'),
    };
    out[i] = c;
    ids[i] = c.check_id;
  }
  return out;
}

function decodeConflicts(raw: JsonObject[], p: string, clean: boolean, ids: string[]): Conflict[] {
  const base = new Loc('$.conflicts');
  const part = new Loc('$.conflicts', '.proposition_ids');
  const out: Conflict[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    base.i = i;
    part.i = i;
    const own = plain(r, clean);
    const names = optionalIdList(r, own, 'proposition_ids', part, 'T4');
    if (names.length === 0) refuse('NOT_AN_ID_LIST', 'T4', part, 'a conflict must name at least one proposition');
    if (!names.some((x) => namesProposition(x, p))) {
      refuse('UNBOUND_PROPOSITION', 'B3', part, `no participant names ${JSON.stringify(p)}`);
    }
    const note = get(r, own, 'note');
    const c: Conflict = {
      conflict_id: requiredText(r, own, 'conflict_id', base),
      proposition_ids: names,
      status: enumValue(r, own, 'status', STATUSES, base) as ConflictStatus,
      note: isFalsy(note) ? '' : requiredText(r, own, 'note', base),
    };
    out[i] = c;
    ids[i] = c.conflict_id;
  }
  return out;
}

function decodeLineage(raw: JsonObject[], clean: boolean): LineageEdge[] {
  const base = new Loc('$.lineage');
  const out: LineageEdge[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    base.i = i;
    const own = plain(r, clean);
    out[i] = {
      from_id: endpoint(r, own, 'from_id', base),
      to_id: endpoint(r, own, 'to_id', base),
      kind: enumValue(r, own, 'kind', KINDS, base) as LineageKind,
    };
  }
  return out;
}

/**
 * Decode and validate an EvidenceView given as a JavaScript value (docs/spec/protocol.md §3–§4). Every rule of
 * the spec refuses the whole view with an {@link InvalidEvidenceView} naming the JSON path; no
 * record is filtered and no field repaired. A missing, `null` or `""` `view_id` becomes the
 * derived id (docs/spec/protocol.md §8).
 *
 * Values from {@link parseJson} keep Python's number distinctions; for plain JS values an
 * integral number counts as an integer token.
 */
export function decodeView(input: unknown): EvidenceView {
  try {
    return decode(input, false);
  } catch (error) {
    // The fast pass checks I5 after all records; the exact pass finds the refusal the record
    // order meets first (an I5 mismatch may come before the error the fast pass met).
    decode(input, true);
    throw error;
  }
}

function decode(input: unknown, exact: boolean): EvidenceView {
  if (!isObject(input)) refuse('NOT_AN_OBJECT', 'S1', '$', `an EvidenceView must be a JSON object, got ${describe(input)}`);
  const view = input;

  const pv = get(view, false, 'proposition_id');
  if (pv === undefined || pv === null) refuse('MISSING_FIELD', 'S2', '$.proposition_id', 'required field is missing');
  if (typeof pv !== 'string') refuse('WRONG_TYPE', 'S2', '$.proposition_id', `expected a string, got ${describe(pv)}`);
  if (pv === '') refuse('EMPTY_STRING', 'S2', '$.proposition_id', 'must not be empty');
  const p = pv;

  const viewId = viewIdOf(get(view, false, 'view_id'));

  const rawAssertions = recordArray(view, 'assertions');
  const rawEvidence = recordArray(view, 'evidence');
  const rawLineage = recordArray(view, 'lineage');
  const rawConflicts = recordArray(view, 'conflicts');
  const rawChecks = recordArray(view, 'checks');

  // Checked for every view: with the text readers inlined, plain reads beat Object.hasOwn per field even
  // on small views.
  const clean = prototypeClean();
  const nA = rawAssertions.length;
  const nE = rawEvidence.length;
  const sources = new Sources(nA + nE + rawChecks.length, exact);
  const idsA: string[] = new Array(nA);
  const idsE: string[] = new Array(nE);
  const idsC: string[] = new Array(rawChecks.length);
  const idsF: string[] = new Array(rawConflicts.length);
  const assertions = decodeAssertions(rawAssertions, p, clean, sources, idsA);
  const evidence = decodeEvidence(rawEvidence, p, clean, sources, nA, idsE);
  const checks = decodeChecks(rawChecks, clean, sources, nA + nE, idsC);
  const conflicts = decodeConflicts(rawConflicts, p, clean, idsF);
  const lineage = decodeLineage(rawLineage, clean);

  sources.checkAll(nA, nE);
  checkUnique(idsA, 'assertions', 'I1');
  checkUnique(idsE, 'evidence', 'I2');
  checkUnique(idsC, 'checks', 'I3');
  checkUnique(idsF, 'conflicts', 'I4');

  const omitted = optionalIdList(view, false, 'omitted_sources', '$.omitted_sources', 'T3');
  const scope = get(view, false, 'retrieval_scope');
  if (scope !== undefined && scope !== null && typeof scope !== 'string') {
    refuse('WRONG_TYPE', 'T8', '$.retrieval_scope', `expected a string, got ${describe(scope)}`);
  }
  const degraded = get(view, false, 'degraded');
  if (degraded !== undefined && degraded !== null && typeof degraded !== 'boolean') {
    refuse('WRONG_TYPE', 'T7', '$.degraded', `expected true or false, got ${describe(degraded)}`);
  }
  const meta = get(view, false, 'adapter_meta');
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
    freshness_policy_seconds: freshness(get(view, false, 'freshness_policy_seconds')),
    adapter_meta: meta === undefined || meta === null ? {} : (plainJson(meta, '$.adapter_meta', 0) as Record<string, unknown>),
    subjects: optionalIdList(view, false, 'subjects', '$.subjects', 'T1'),
  };
  decoded.view_id = viewId ?? deriveViewId(decoded);
  return decoded;
}

function endpoint(o: JsonObject, own: boolean, key: string, base: Path): string {
  const v = get(o, own, key);
  if (v === undefined || v === null) refuse('MISSING_FIELD', 'T5', `${base}.${key}`, 'required field is missing');
  if (typeof v !== 'string') refuse('WRONG_TYPE', 'T5', `${base}.${key}`, `expected a non-empty string, got ${describe(v)}`);
  if (v === '') refuse('EMPTY_STRING', 'T5', `${base}.${key}`, 'must not be empty');
  return v;
}

/** {@link decodeView} on JSON text, parsed with Python's number semantics ({@link parseJson}). */
export function decodeViewJson(text: string | Uint8Array): EvidenceView {
  return decodeView(parseJson(text));
}
