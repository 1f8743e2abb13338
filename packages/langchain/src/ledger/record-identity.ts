/**
 * The identity rule of STORES.md §1.5: an id names the same content in every snapshot of a
 * proposition. The ledger keeps one index per proposition (id → canonical content text) and
 * checks each new snapshot against it before anything is written.
 */
import type { EvidenceView, SourceRef, VerificationCheck } from '@ewp/core';
import { LedgerRefusal } from './ledger-errors.js';
import { stableJson } from './stable-json.js';

/** id → canonical content, per record kind, for one proposition. */
export interface RecordIndex {
  assertions: Record<string, string>;
  evidence: Record<string, string>;
  checks: Record<string, string>;
  sources: Record<string, string>;
  conflicts: Record<string, string>;
}

export function emptyRecordIndex(): RecordIndex {
  return { assertions: {}, evidence: {}, checks: {}, sources: {}, conflicts: {} };
}

function sourceContent(source: SourceRef): string {
  return stableJson(source);
}

function checkContent(check: VerificationCheck): string {
  // Subjects are a set for identity: order is not content.
  return stableJson({
    method: check.method,
    scope: check.scope,
    source_id: check.source.source_id,
    observed_at: check.observed_at,
    result: check.result,
    subjects: [...new Set(check.subjects)].sort(),
  });
}

/** The content each id of `view` names, in the index's shape. */
export function indexOfView(view: EvidenceView): Array<{ kind: keyof RecordIndex; id: string; content: string; path: string }> {
  const out: Array<{ kind: keyof RecordIndex; id: string; content: string; path: string }> = [];
  const source = (s: SourceRef, path: string) =>
    out.push({ kind: 'sources', id: s.source_id, content: sourceContent(s), path: `${path}.source` });
  view.assertions.forEach((a, i) => {
    const path = `$.assertions[${i}]`;
    out.push({
      kind: 'assertions',
      id: a.assertion_id,
      path,
      content: stableJson({
        proposition_id: a.proposition_id,
        text: a.text,
        asserted_by: a.asserted_by,
        assertion_confidence: a.assertion_confidence,
        source_id: a.source.source_id,
        asserted_at: a.asserted_at,
      }),
    });
    source(a.source, path);
  });
  view.evidence.forEach((e, i) => {
    const path = `$.evidence[${i}]`;
    out.push({
      kind: 'evidence',
      id: e.evidence_id,
      path,
      content: stableJson({
        proposition_id: e.proposition_id,
        polarity: e.polarity,
        source_id: e.source.source_id,
        content: e.content,
        observed_at: e.observed_at,
      }),
    });
    source(e.source, path);
  });
  view.checks.forEach((c, i) => {
    const path = `$.checks[${i}]`;
    out.push({ kind: 'checks', id: c.check_id, path, content: checkContent(c) });
    source(c.source, path);
  });
  view.conflicts.forEach((c, i) => {
    out.push({
      kind: 'conflicts',
      id: c.conflict_id,
      path: `$.conflicts[${i}]`,
      content: stableJson([...new Set(c.proposition_ids)].sort()),
    });
  });
  return out;
}

const KIND_NAMES: Record<keyof RecordIndex, string> = {
  assertions: 'assertion',
  evidence: 'evidence',
  checks: 'check',
  sources: 'source',
  conflicts: 'conflict',
};

/**
 * Check `view` against the committed `index` and return the index after committing it.
 * Throws `EWP_REFUSE_IMMUTABLE_RECORD` naming the first reused id; `index` is not modified.
 */
export function admitView(index: RecordIndex, view: EvidenceView): RecordIndex {
  const next: RecordIndex = {
    assertions: { ...index.assertions },
    evidence: { ...index.evidence },
    checks: { ...index.checks },
    sources: { ...index.sources },
    conflicts: { ...index.conflicts },
  };
  for (const entry of indexOfView(view)) {
    const known = next[entry.kind][entry.id];
    if (known !== undefined && known !== entry.content) {
      throw new LedgerRefusal(
        'EWP_REFUSE_IMMUTABLE_RECORD',
        `${KIND_NAMES[entry.kind]} id ${JSON.stringify(entry.id)} already names other content in proposition ${JSON.stringify(view.proposition_id)}`,
        entry.path,
      );
    }
    next[entry.kind][entry.id] = entry.content;
  }
  return next;
}
