/**
 * Table-driven decoding and validation of an EvidenceView (docs/spec/protocol.md §3, §4). Each record kind is a
 * table of (field, reader) rows; a single pass reads every row, converting text with Python
 * `str()`, and records the first hard refusal. Non-empty arrays/objects in text fields are a
 * *soft* refusal (project decision, docs/spec/protocol.md §4.3): validation continues, so the caller can tell a
 * view refused only for that reason (the vectors flag those `python_repr`).
 */
import { isJFloat, isJInt, isJObject, type JObject, type JValue } from './json-value.js';
import { pythonStr, pythonTruthy } from './python-text.js';
import type { OAssertion, OCheck, OConflict, OEdge, OEvidence, OSource, OView } from './view-model.js';

/** Why a view is refused. `pythonReprOnly` is true when the only defect is a container in a text field. */
export interface DecodeRefusal {
  readonly rule: string;
  readonly path: string;
  readonly reason: string;
  readonly pythonReprOnly: boolean;
}

class Refused extends Error {
  constructor(
    readonly rule: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${rule} ${path}: ${reason}`);
  }
}

interface Ctx {
  P: string;
  /** Path of the first text field holding a non-empty container, if any. */
  reprPath: string | null;
}

const MAX_FRESHNESS = 2n ** 53n - 1n;

function missing(v: JValue | undefined): v is null | undefined {
  return v === undefined || v === null;
}

function names(x: string, P: string): boolean {
  return x === P || x.startsWith(`${P}:`);
}

type Reader = (v: JValue | undefined, path: string, ctx: Ctx) => unknown;

function textOf(v: Exclude<JValue, null>, path: string, ctx: Ctx): string {
  const r = pythonStr(v);
  if (r.container && ctx.reprPath === null) ctx.reprPath = path;
  return r.text;
}

const requiredText: Reader = (v, path, ctx) => {
  if (missing(v)) throw new Refused('S5', path, 'required text field missing');
  return textOf(v, path, ctx);
};

const optionalText: Reader = (v, path, ctx) => (missing(v) ? null : textOf(v, path, ctx));

const recordProposition: Reader = (v, path, ctx) => {
  if (missing(v)) return ctx.P;
  const t = textOf(v, path, ctx);
  if (!names(t, ctx.P)) throw new Refused('B1/B2', path, `does not name ${ctx.P}`);
  return t;
};

function enumOf(values: readonly string[]): Reader {
  return (v, path) => {
    if (typeof v !== 'string' || !values.includes(v)) throw new Refused('enum', path, 'not a member of the enum');
    return v;
  };
}

function idList(v: JValue | undefined, path: string, rule: string): string[] {
  if (!Array.isArray(v)) throw new Refused(rule, path, 'not an id-list');
  return v.map((x, i) => {
    if (typeof x !== 'string' || x === '') throw new Refused(rule, `${path}[${i}]`, 'id-list element is not a non-empty string');
    return x;
  });
}

const checkSubjects: Reader = (v, path) => (missing(v) ? [] : idList(v, path, 'T2'));

const conflictParticipants: Reader = (v, path, ctx) => {
  const list = missing(v) ? [] : idList(v, path, 'T4');
  if (list.length === 0) throw new Refused('T4', path, 'empty participant list');
  if (!list.some((x) => names(x, ctx.P))) throw new Refused('B3', path, 'no participant names P');
  return list;
};

const conflictNote: Reader = (v, path, ctx) => {
  if (v === undefined || !pythonTruthy(v)) return '';
  return textOf(v as Exclude<JValue, null>, path, ctx);
};

const confidence: Reader = (v, path) => {
  if (missing(v)) throw new Refused('S5', path, 'required field missing');
  let x: number;
  if (isJInt(v)) x = Number(v.value);
  else if (isJFloat(v)) x = v.value;
  else throw new Refused('T9', path, 'not a number');
  if (!Number.isFinite(x)) throw new Refused('T9', path, 'not finite as a double');
  return x;
};

const lineageEndpoint: Reader = (v, path) => {
  if (typeof v !== 'string' || v === '') throw new Refused('T5', path, 'not a non-empty string');
  return v;
};

const SOURCE_TABLE: ReadonlyArray<readonly [string, Reader]> = [
  ['source_id', requiredText],
  ['lineage_id', requiredText],
  ['origin_type', requiredText],
  ['origin_locator', requiredText],
  ['snapshot_id', requiredText],
  ['content_hash', requiredText],
  ['observed_at', requiredText],
  ['extractor_id', optionalText],
  ['parent_source_id', optionalText],
];

const source: Reader = (v, path, ctx) => {
  if (missing(v)) throw new Refused('S5', path, 'source missing');
  if (!isJObject(v)) throw new Refused('S5', path, 'source is not an object');
  return readRow(v, path, SOURCE_TABLE, ctx);
};

const RECORD_TABLES = {
  assertions: [
    ['assertion_id', requiredText],
    ['proposition_id', recordProposition],
    ['text', requiredText],
    ['asserted_by', requiredText],
    ['assertion_confidence', confidence],
    ['source', source],
    ['asserted_at', requiredText],
  ],
  evidence: [
    ['evidence_id', requiredText],
    ['proposition_id', recordProposition],
    ['polarity', enumOf(['supports', 'opposes'])],
    ['source', source],
    ['content', requiredText],
    ['observed_at', requiredText],
  ],
  lineage: [
    ['from_id', lineageEndpoint],
    ['to_id', lineageEndpoint],
    ['kind', enumOf(['derived_from', 'supersedes', 'superseded_by', 'parent_source'])],
  ],
  conflicts: [
    ['conflict_id', requiredText],
    ['proposition_ids', conflictParticipants],
    ['status', enumOf(['open', 'resolved'])],
    ['note', conflictNote],
  ],
  checks: [
    ['check_id', requiredText],
    ['method', requiredText],
    ['scope', requiredText],
    ['source', source],
    ['observed_at', requiredText],
    ['result', enumOf(['supports', 'opposes', 'inconclusive'])],
    ['subjects', checkSubjects],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [string, Reader]>>;

type RecordKind = keyof typeof RECORD_TABLES;
const RECORD_KINDS = Object.keys(RECORD_TABLES) as RecordKind[];
const ID_FIELD: Partial<Record<RecordKind, string>> = {
  assertions: 'assertion_id',
  evidence: 'evidence_id',
  checks: 'check_id',
  conflicts: 'conflict_id',
};

function readRow(obj: JObject, path: string, table: ReadonlyArray<readonly [string, Reader]>, ctx: Ctx): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, read] of table) out[field] = read(obj.entries.get(field), `${path}.${field}`, ctx);
  return out;
}

function sourceKey(s: OSource): string {
  return JSON.stringify([
    s.source_id,
    s.lineage_id,
    s.origin_type,
    s.origin_locator,
    s.snapshot_id,
    s.content_hash,
    s.observed_at,
    s.extractor_id,
    s.parent_source_id,
  ]);
}

function decodeOrThrow(value: JValue, ctx: Ctx): OView {
  if (!isJObject(value)) throw new Refused('S1', '$', 'the view is not an object');
  const e = value.entries;
  const P = e.get('proposition_id');
  if (typeof P !== 'string' || P === '') throw new Refused('S2', '$.proposition_id', 'not a non-empty string');
  ctx.P = P;

  let viewId: string | null;
  const vid = e.get('view_id');
  if (missing(vid) || vid === '') viewId = null;
  else if (typeof vid === 'string') viewId = vid;
  else if (isJInt(vid)) viewId = vid.value.toString();
  else throw new Refused('S3', '$.view_id', 'not a string or an integer');

  const records: Record<RecordKind, Record<string, unknown>[]> = {
    assertions: [],
    evidence: [],
    lineage: [],
    conflicts: [],
    checks: [],
  };
  for (const kind of RECORD_KINDS) {
    const arr = e.get(kind);
    if (missing(arr)) continue;
    if (!Array.isArray(arr)) throw new Refused('S4', `$.${kind}`, 'not an array');
    arr.forEach((item, i) => {
      const path = `$.${kind}[${i}]`;
      if (!isJObject(item)) throw new Refused('S4', path, 'element is not an object');
      records[kind].push(readRow(item, path, RECORD_TABLES[kind], ctx));
    });
  }

  const omitted = missing(e.get('omitted_sources')) ? [] : idList(e.get('omitted_sources'), '$.omitted_sources', 'T3');
  const subjects = missing(e.get('subjects')) ? [] : idList(e.get('subjects'), '$.subjects', 'T1');

  const scope = e.get('retrieval_scope');
  if (!missing(scope) && typeof scope !== 'string') throw new Refused('T8', '$.retrieval_scope', 'not a string');
  const degraded = e.get('degraded');
  if (!missing(degraded) && typeof degraded !== 'boolean') throw new Refused('T7', '$.degraded', 'not a boolean');
  const fresh = e.get('freshness_policy_seconds');
  let freshness = 2_592_000n;
  if (!missing(fresh)) {
    if (!isJInt(fresh)) throw new Refused('T6', '$.freshness_policy_seconds', 'not an integer token');
    if (fresh.value < 0n || fresh.value > MAX_FRESHNESS) throw new Refused('T6', '$.freshness_policy_seconds', 'out of range');
    freshness = fresh.value;
  }
  const meta = e.get('adapter_meta');
  if (!missing(meta) && !isJObject(meta)) throw new Refused('S6', '$.adapter_meta', 'not an object');

  // Identity rules I1–I4 (after conversion) and I5 (one SourceRef per source_id).
  for (const kind of RECORD_KINDS) {
    const idField = ID_FIELD[kind];
    if (idField === undefined) continue;
    const seen = new Set<string>();
    records[kind].forEach((r, i) => {
      const id = r[idField] as string;
      if (seen.has(id)) throw new Refused('I1-I4', `$.${kind}[${i}].${idField}`, `duplicate id ${JSON.stringify(id)}`);
      seen.add(id);
    });
  }
  const bySource = new Map<string, string>();
  for (const kind of ['assertions', 'evidence', 'checks'] as const) {
    records[kind].forEach((r, i) => {
      const s = r.source as OSource;
      const key = sourceKey(s);
      const prior = bySource.get(s.source_id);
      if (prior !== undefined && prior !== key) throw new Refused('I5', `$.${kind}[${i}].source`, 'SourceRef differs');
      bySource.set(s.source_id, key);
    });
  }

  return {
    proposition_id: P,
    view_id: viewId,
    assertions: records.assertions as unknown as OAssertion[],
    evidence: records.evidence as unknown as OEvidence[],
    lineage: records.lineage as unknown as OEdge[],
    conflicts: records.conflicts as unknown as OConflict[],
    checks: records.checks as unknown as OCheck[],
    omitted_sources: omitted,
    retrieval_scope: missing(scope) ? 'complete' : scope,
    degraded: missing(degraded) ? false : degraded,
    freshness_policy_seconds: freshness,
    subjects,
  };
}

/** Decodes and validates a view; a refusal is returned, never thrown. */
export function decodeView(value: JValue): OView | DecodeRefusal {
  const ctx: Ctx = { P: '', reprPath: null };
  try {
    const view = decodeOrThrow(value, ctx);
    if (ctx.reprPath !== null) {
      return { rule: '§4.3', path: ctx.reprPath, reason: 'non-empty array/object in a text field (Python repr)', pythonReprOnly: true };
    }
    return view;
  } catch (err) {
    if (err instanceof Refused) return { rule: err.rule, path: err.path, reason: err.reason, pythonReprOnly: false };
    throw err;
  }
}

/** Same as {@link decodeView} but evaluates Python-repr text instead of refusing (diagnostics only). */
export function decodeViewAcceptingRepr(value: JValue): OView | DecodeRefusal {
  const ctx: Ctx = { P: '', reprPath: null };
  try {
    return decodeOrThrow(value, ctx);
  } catch (err) {
    if (err instanceof Refused) return { rule: err.rule, path: err.path, reason: err.reason, pythonReprOnly: false };
    throw err;
  }
}

export function isRefusal(x: OView | DecodeRefusal): x is DecodeRefusal {
  return 'rule' in x && 'reason' in x;
}
