import { domainDigest } from '@ewp/canonical';
import { compareCodePoints, type EvidenceView, normativeWarrant, type SourceRef, sourceRefOf, type WarrantView } from '@ewp/core';

/*
 * The order-independent projection of an EvidenceView that warrant receipts hash (docs/spec/receipts.md §12.3).
 * EBCJ-1 refuses floats and EWP views carry one (`assertion_confidence`), so the projection writes
 * every non-integer number as a string in ECMAScript / RFC 8785 number form (`0.99` → "0.99") and
 * stays EBCJ-1. `adapter_meta` (where recall salience lives: scores, ranks, access counts) is dropped,
 * so it can never move a digest.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** RFC 8785 / ECMAScript number text for non-integers; integers stay integers. */
function projectNumber(n: number): number | string {
  return Number.isSafeInteger(n) ? n : floatText(n);
}

/** A float-typed field is always a string, even when integral: `1.0` → "1", `1e-7` → "1e-7". */
function floatText(n: number): string {
  return Object.is(n, -0) ? '0' : String(n);
}

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    compareCodePoints(key(a), key(b));
const sorted = (xs: readonly string[]) => [...xs].sort(compareCodePoints);

function compareTriples(a: [string, string, string], b: [string, string, string]): number {
  return compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]) || compareCodePoints(a[2], b[2]);
}

/** The lineage edges of a view, sorted by `(from_id, to_id, kind)` by code point. */
function projectLineage(view: EvidenceView): Json[] {
  return [...view.lineage]
    .sort((a, b) => compareTriples([a.from_id, a.to_id, a.kind], [b.from_id, b.to_id, b.kind]))
    .map((e) => ({ from_id: e.from_id, to_id: e.to_id, kind: e.kind }));
}

/** The records of a view, one projected record per `<kind>:<id>` key (docs/spec/receipts.md §12.4), sorted by id. */
export function projectRecords(view: EvidenceView): { id: string; record: { [k: string]: Json }; source: SourceRef | null }[] {
  const out: { id: string; record: { [k: string]: Json }; source: SourceRef | null }[] = [];
  for (const a of [...view.assertions].sort(byKey((x) => x.assertion_id))) {
    out.push({
      id: `assertion:${a.assertion_id}`,
      source: a.source,
      record: {
        assertion_id: a.assertion_id,
        proposition_id: a.proposition_id,
        text: a.text,
        asserted_by: a.asserted_by,
        assertion_confidence: floatText(a.assertion_confidence),
        asserted_at: a.asserted_at,
      },
    });
  }
  for (const e of [...view.evidence].sort(byKey((x) => x.evidence_id))) {
    out.push({
      id: `evidence:${e.evidence_id}`,
      source: e.source,
      record: {
        evidence_id: e.evidence_id,
        proposition_id: e.proposition_id,
        polarity: e.polarity,
        content: e.content,
        observed_at: e.observed_at,
      },
    });
  }
  for (const c of [...view.checks].sort(byKey((x) => x.check_id))) {
    out.push({
      id: `check:${c.check_id}`,
      source: c.source,
      record: {
        check_id: c.check_id,
        method: c.method,
        scope: c.scope,
        observed_at: c.observed_at,
        result: c.result,
        subjects: sorted(c.subjects),
      },
    });
  }
  for (const c of [...view.conflicts].sort(byKey((x) => x.conflict_id))) {
    out.push({
      id: `conflict:${c.conflict_id}`,
      source: null,
      record: { conflict_id: c.conflict_id, proposition_ids: sorted(c.proposition_ids), status: c.status, note: c.note },
    });
  }
  return out;
}

/** The view-level fields that are not records (the `view:meta` payload of docs/spec/receipts.md §12.4). */
export function projectViewMeta(view: EvidenceView): { [k: string]: Json } {
  return {
    retrieval_scope: view.retrieval_scope,
    degraded: view.degraded,
    freshness_policy_seconds: projectNumber(view.freshness_policy_seconds),
    subjects: sorted(view.subjects),
    omitted_sources: sorted(view.omitted_sources),
    lineage: projectLineage(view),
  };
}

/**
 * The full projection hashed as `view_digest`: identity, view-level fields, and every record with
 * its SourceRef, each list sorted by id; EBCJ-1 canonicalizable. Equal projections ⇔ same snapshot
 * content (up to record order and `adapter_meta`).
 */
export function ewpViewProjection(view: EvidenceView): { [k: string]: Json } {
  const withSource = (kind: string) =>
    projectRecords(view)
      .filter((r) => r.id.startsWith(`${kind}:`))
      .map((r) => (r.source === null ? r.record : { ...r.record, source: sourceRefOf(r.source) as unknown as Json }));
  return {
    proposition_id: view.proposition_id,
    view_id: view.view_id,
    ...projectViewMeta(view),
    assertions: withSource('assertion'),
    evidence: withSource('evidence'),
    checks: withSource('check'),
    conflicts: withSource('conflict'),
  };
}

/** `digest(view projection, "ewp-view")`. */
export function ewpViewDigest(view: EvidenceView): string {
  return domainDigest('ewp-view', ewpViewProjection(view));
}

/** The normative WarrantView of docs/spec/receipts.md §12.2: identity, T and the five axes; nothing else. */
export function normativeWarrantView(w: WarrantView): { [k: string]: Json } {
  return normativeWarrant(w);
}

/** `digest(normative WarrantView, "ewp-warrant")`; strength and diagnostics never enter it. */
export function ewpWarrantDigest(w: WarrantView): string {
  return domainDigest('ewp-warrant', normativeWarrantView(w));
}
