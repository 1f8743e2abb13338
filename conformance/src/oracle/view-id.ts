/**
 * The content-derived view id (docs/spec/protocol.md §8): a canonical object serialized like Python's
 * `json.dumps(obj, sort_keys=True)` (ASCII-only), hashed with SHA-256.
 */
import { createHash } from 'node:crypto';
import { compareCodePoints, sortedByCodePoint } from './code-point-order.js';
import { pythonFloatRepr } from './python-text.js';
import type { OSource, OView } from './view-model.js';

type Canon = null | boolean | string | { int: bigint } | { float: number } | Canon[] | { [k: string]: Canon };

function escapeString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c >= 0x20 && c <= 0x7e) out += s[i];
    // UTF-16 code units are exactly Python's \uXXXX escapes (astral → surrogate pair).
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

function dump(v: Canon): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return escapeString(v);
  if (Array.isArray(v)) return `[${v.map(dump).join(', ')}]`;
  if ('int' in v && typeof v.int === 'bigint') return v.int.toString();
  if ('float' in v && typeof v.float === 'number') return pythonFloatRepr(v.float);
  const obj = v as { [k: string]: Canon };
  const keys = Object.keys(obj).sort(compareCodePoints);
  return `{${keys.map((k) => `${escapeString(k)}: ${dump(obj[k] as Canon)}`).join(', ')}}`;
}

function src(s: OSource): Canon {
  return { ...s };
}

function byField<T>(field: keyof T) {
  return (a: T, b: T) => compareCodePoints(a[field] as string, b[field] as string);
}

/** The exact ASCII text whose SHA-256 gives the derived id. */
export function canonicalText(view: OView): string {
  const canon: Canon = {
    assertions: [...view.assertions].sort(byField('assertion_id')).map((a) => ({
      assertion_id: a.assertion_id,
      proposition_id: a.proposition_id,
      text: a.text,
      asserted_by: a.asserted_by,
      assertion_confidence: { float: a.assertion_confidence },
      source: src(a.source),
      asserted_at: a.asserted_at,
    })),
    checks: [...view.checks].sort(byField('check_id')).map((c) => ({
      check_id: c.check_id,
      method: c.method,
      scope: c.scope,
      source: src(c.source),
      observed_at: c.observed_at,
      result: c.result,
      subjects: sortedByCodePoint(c.subjects),
    })),
    conflicts: [...view.conflicts].sort(byField('conflict_id')).map((c) => ({
      conflict_id: c.conflict_id,
      proposition_ids: sortedByCodePoint(c.proposition_ids),
      status: c.status,
      note: c.note,
    })),
    degraded: view.degraded,
    evidence: [...view.evidence].sort(byField('evidence_id')).map((e) => ({
      evidence_id: e.evidence_id,
      proposition_id: e.proposition_id,
      polarity: e.polarity,
      source: src(e.source),
      content: e.content,
      observed_at: e.observed_at,
    })),
    freshness_policy_seconds: { int: view.freshness_policy_seconds },
    lineage: [...view.lineage]
      .sort((a, b) => compareCodePoints(a.from_id, b.from_id) || compareCodePoints(a.to_id, b.to_id) || compareCodePoints(a.kind, b.kind))
      .map((l) => ({ from_id: l.from_id, to_id: l.to_id, kind: l.kind })),
    omitted_sources: sortedByCodePoint(view.omitted_sources),
    proposition_id: view.proposition_id,
    retrieval_scope: view.retrieval_scope,
    subjects: sortedByCodePoint(view.subjects),
  };
  return dump(canon);
}

/** `"v-"` + the first 20 hex digits of SHA-256 of {@link canonicalText}. */
export function derivedViewId(view: OView): string {
  return `v-${createHash('sha256').update(canonicalText(view), 'ascii').digest('hex').slice(0, 20)}`;
}
