/**
 * The JSON-file store's snapshot document (STORES.md §3): every field renamed, so the adapter and not
 * the layout carries the meaning. We also keep `adapter_meta` (the reference drops it).
 */
import type { Assertion, EvidenceItem, EvidenceView, SourceRef, VerificationCheck } from '@ewp/core';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Objects with keys in code-point order, for the pretty, sorted-key file format. */
function sortKeys(value: unknown): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      // defineProperty: a key may be "__proto__", which plain assignment would swallow.
      Object.defineProperty(out, key, { value: sortKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value as Json;
}

/** Pretty JSON with sorted keys and a final newline. */
export function prettySorted(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

const src = (s: SourceRef) => ({ ...s });

/** Write a view as the §3 document. */
export function viewToDocument(view: EvidenceView): Record<string, unknown> {
  return {
    claim: view.proposition_id,
    view_meta: {
      view_id: view.view_id,
      freshness_policy_seconds: view.freshness_policy_seconds,
      retrieval_scope: view.retrieval_scope,
      degraded: view.degraded,
      omitted_sources: view.omitted_sources,
      subjects: view.subjects,
    },
    observations: [
      ...view.assertions.map((a) => ({
        kind: 'assertion',
        id: a.assertion_id,
        about: a.proposition_id,
        text: a.text,
        asserted_by: a.asserted_by,
        how_sure_they_sounded: a.assertion_confidence,
        when: a.asserted_at,
        source: src(a.source),
      })),
      ...view.evidence.map((e) => ({
        kind: 'snippet',
        id: e.evidence_id,
        about: e.proposition_id,
        side: e.polarity,
        content: e.content,
        when: e.observed_at,
        source: src(e.source),
      })),
    ],
    verification_history: view.checks.map((c) => ({
      id: c.check_id,
      how: c.method,
      what_was_inspected: c.scope,
      when: c.observed_at,
      outcome: c.result,
      subjects: c.subjects,
      source: src(c.source),
    })),
    disputes: view.conflicts.map((c) => ({ id: c.conflict_id, about: c.proposition_ids, state: c.status, note: c.note })),
    source_graph: view.lineage.map((l) => ({ from: l.from_id, to: l.to_id, rel: l.kind })),
    adapter_meta: view.adapter_meta,
  };
}

type Doc = Record<string, any>;

/** Read a §3 document back into an (undecoded) view object; the caller decodes and validates it. */
export function documentToView(doc: Doc): Record<string, unknown> {
  const meta = doc.view_meta ?? {};
  const observations: Doc[] = Array.isArray(doc.observations) ? doc.observations : [];
  const assertions: Partial<Assertion>[] = observations
    .filter((o) => o.kind === 'assertion')
    .map((o) => ({
      assertion_id: o.id,
      proposition_id: o.about,
      text: o.text,
      asserted_by: o.asserted_by,
      assertion_confidence: o.how_sure_they_sounded,
      source: o.source,
      asserted_at: o.when,
    }));
  const evidence: Partial<EvidenceItem>[] = observations
    .filter((o) => o.kind === 'snippet')
    .map((o) => ({ evidence_id: o.id, proposition_id: o.about, polarity: o.side, source: o.source, content: o.content, observed_at: o.when }));
  const checks: Partial<VerificationCheck>[] = (doc.verification_history ?? []).map((c: Doc) => ({
    check_id: c.id,
    method: c.how,
    scope: c.what_was_inspected,
    source: c.source,
    observed_at: c.when,
    result: c.outcome,
    subjects: c.subjects,
  }));
  return {
    proposition_id: doc.claim,
    view_id: meta.view_id,
    assertions,
    evidence,
    checks,
    conflicts: (doc.disputes ?? []).map((d: Doc) => ({ conflict_id: d.id, proposition_ids: d.about, status: d.state, note: d.note })),
    lineage: (doc.source_graph ?? []).map((l: Doc) => ({ from_id: l.from, to_id: l.to, kind: l.rel })),
    omitted_sources: meta.omitted_sources,
    retrieval_scope: meta.retrieval_scope,
    degraded: meta.degraded,
    freshness_policy_seconds: meta.freshness_policy_seconds,
    subjects: meta.subjects,
    adapter_meta: doc.adapter_meta ?? {},
  };
}
