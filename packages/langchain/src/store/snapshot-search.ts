/**
 * A search within one stored snapshot: the records whose text matches the query best, up to
 * `limit`. Records the search did not return are listed in `omitted_sources` and the view is
 * DEGRADED (scope `langgraph.search`): a partial result never reads as the whole evidence.
 * Checks, conflicts and lineage still apply to what is returned.
 */
import { InvalidArgumentError } from '@ewp/core';
import type { Assertion, EvidenceItem, EvidenceView } from '@ewp/core';

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

function score(text: string, query: string[]): number {
  const have = new Set(words(text));
  return query.reduce((n, w) => n + (have.has(w) ? 1 : 0), 0);
}

export function searchSnapshot(view: EvidenceView, query: string, limit: number): EvidenceView {
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError('limit', `must be a positive integer, got ${String(limit)}`);
  const q = words(query);
  type Ranked = { kind: 'assertion'; record: Assertion; s: number; i: number } | { kind: 'evidence'; record: EvidenceItem; s: number; i: number };
  const ranked: Ranked[] = [
    ...view.assertions.map((record, i): Ranked => ({ kind: 'assertion', record, s: score(record.text, q), i })),
    ...view.evidence.map((record, i): Ranked => ({ kind: 'evidence', record, s: score(record.content, q), i: view.assertions.length + i })),
  ].sort((a, b) => b.s - a.s || a.i - b.i);
  if (ranked.length <= limit) return view;
  const kept = new Set(ranked.slice(0, limit).map((r) => r.record));
  const assertions = view.assertions.filter((a) => kept.has(a));
  const evidence = view.evidence.filter((e) => kept.has(e));
  const keptSources = new Set([...assertions, ...evidence, ...view.checks].map((r) => r.source.source_id));
  const omitted = [...view.assertions, ...view.evidence].filter((r) => !kept.has(r) && !keptSources.has(r.source.source_id)).map((r) => r.source.source_id);
  return {
    ...view,
    view_id: `${view.view_id}#search`,
    assertions,
    evidence,
    omitted_sources: [...new Set([...view.omitted_sources, ...omitted])],
    degraded: true,
    retrieval_scope: 'langgraph.search',
  };
}
