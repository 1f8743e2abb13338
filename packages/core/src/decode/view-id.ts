import type { EvidenceView, SourceRef } from '@ewp/spec';
import { compareCodePoints, sortedByCodePoint } from './codepoint-order.js';
import { pythonFloatRepr } from './python-text.js';
import { sha256HexOfAscii } from './sha256.js';

/**
 * A JSON string literal as Python's `json.dumps` writes it (ensure_ascii): `"`, `\\`, and
 * `\b \f \n \r \t` as short escapes, every other character outside U+0020–U+007E as `\uXXXX`.
 */
function pyString(s: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(chunk, i);
    chunk = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      default:
        out += `\\u${c.toString(16).padStart(4, '0')}`;
    }
  }
  return `${out}${s.slice(chunk)}"`;
}

function pyNullable(s: string | null): string {
  return s === null ? 'null' : pyString(s);
}

function pyList(items: readonly string[]): string {
  return `[${items.map(pyString).join(', ')}]`;
}

// Keys in sorted order, as json.dumps(sort_keys=True) writes them.
function sourceText(s: SourceRef): string {
  return (
    `{"content_hash": ${pyString(s.content_hash)}, "extractor_id": ${pyNullable(s.extractor_id)}, ` +
    `"lineage_id": ${pyString(s.lineage_id)}, "observed_at": ${pyString(s.observed_at)}, ` +
    `"origin_locator": ${pyString(s.origin_locator)}, "origin_type": ${pyString(s.origin_type)}, ` +
    `"parent_source_id": ${pyNullable(s.parent_source_id)}, "snapshot_id": ${pyString(s.snapshot_id)}, ` +
    `"source_id": ${pyString(s.source_id)}}`
  );
}

function byKey<T>(items: readonly T[], key: (t: T) => string): T[] {
  return [...items].sort((a, b) => compareCodePoints(key(a), key(b)));
}

/**
 * The canonical text of a snapshot's content (docs/spec/protocol.md §8): every field but `view_id` and
 * `adapter_meta`, records and sets sorted in code point order, serialized like Python's
 * `json.dumps(sort_keys=True)`. Pure ASCII. Same content in any record order → same text.
 */
export function canonicalViewText(view: EvidenceView): string {
  const assertions = byKey(view.assertions, (a) => a.assertion_id).map(
    (a) =>
      `{"asserted_at": ${pyString(a.asserted_at)}, "asserted_by": ${pyString(a.asserted_by)}, ` +
      `"assertion_confidence": ${pythonFloatRepr(a.assertion_confidence)}, "assertion_id": ${pyString(a.assertion_id)}, ` +
      `"proposition_id": ${pyString(a.proposition_id)}, "source": ${sourceText(a.source)}, "text": ${pyString(a.text)}}`,
  );
  const checks = byKey(view.checks, (c) => c.check_id).map(
    (c) =>
      `{"check_id": ${pyString(c.check_id)}, "method": ${pyString(c.method)}, "observed_at": ${pyString(c.observed_at)}, ` +
      `"result": ${pyString(c.result)}, "scope": ${pyString(c.scope)}, "source": ${sourceText(c.source)}, ` +
      `"subjects": ${pyList(sortedByCodePoint(c.subjects))}}`,
  );
  const conflicts = byKey(view.conflicts, (c) => c.conflict_id).map(
    (c) =>
      `{"conflict_id": ${pyString(c.conflict_id)}, "note": ${pyString(c.note)}, ` +
      `"proposition_ids": ${pyList(sortedByCodePoint(c.proposition_ids))}, "status": ${pyString(c.status)}}`,
  );
  const evidence = byKey(view.evidence, (e) => e.evidence_id).map(
    (e) =>
      `{"content": ${pyString(e.content)}, "evidence_id": ${pyString(e.evidence_id)}, "observed_at": ${pyString(e.observed_at)}, ` +
      `"polarity": ${pyString(e.polarity)}, "proposition_id": ${pyString(e.proposition_id)}, "source": ${sourceText(e.source)}}`,
  );
  const lineage = [...view.lineage]
    .sort((a, b) => compareCodePoints(a.from_id, b.from_id) || compareCodePoints(a.to_id, b.to_id) || compareCodePoints(a.kind, b.kind))
    .map((l) => `{"from_id": ${pyString(l.from_id)}, "kind": ${pyString(l.kind)}, "to_id": ${pyString(l.to_id)}}`);
  return (
    `{"assertions": [${assertions.join(', ')}], "checks": [${checks.join(', ')}], ` +
    `"conflicts": [${conflicts.join(', ')}], "degraded": ${view.degraded ? 'true' : 'false'}, ` +
    `"evidence": [${evidence.join(', ')}], "freshness_policy_seconds": ${view.freshness_policy_seconds}, ` +
    `"lineage": [${lineage.join(', ')}], "omitted_sources": ${pyList(sortedByCodePoint(view.omitted_sources))}, ` +
    `"proposition_id": ${pyString(view.proposition_id)}, "retrieval_scope": ${pyString(view.retrieval_scope)}, ` +
    `"subjects": ${pyList(sortedByCodePoint(view.subjects))}}`
  );
}

/** The content-derived view id (docs/spec/protocol.md §8): `v-` + the first 20 hex digits of SHA-256 of the canonical text. */
export function deriveViewId(view: EvidenceView): string {
  return `v-${sha256HexOfAscii(canonicalViewText(view)).slice(0, 20)}`;
}
