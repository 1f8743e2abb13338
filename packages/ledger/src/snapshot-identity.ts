/**
 * Snapshot identity for adapters that keep snapshots in a foreign memory store (Mem0, Zep) rather
 * than in a ledger: the identity rule between a proposition's snapshots, the digest that names one
 * snapshot's content, and the part of a snapshot stored beside its assertion and evidence members.
 */
import { createHash } from 'node:crypto';
import { canonicalViewText, type EvidenceView } from '@ewp/core';
import { type SnapshotHead, sourceText } from './snapshot-layout.js';

/** Digest of everything a snapshot is: its id, its canonical content (SPEC §8) and its adapter_meta. */
export function snapshotDigest(view: EvidenceView): string {
  const text = JSON.stringify([view.view_id, canonicalViewText(view), view.adapter_meta]);
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** Everything of a view that is not an assertion or evidence member: the snapshot head plus the checks. */
export interface SnapshotBody extends SnapshotHead {
  checks: EvidenceView['checks'];
}

export function snapshotBody(view: EvidenceView): SnapshotBody {
  return {
    checks: view.checks,
    conflicts: view.conflicts,
    lineage: view.lineage,
    omitted_sources: view.omitted_sources,
    retrieval_scope: view.retrieval_scope,
    degraded: view.degraded,
    freshness_policy_seconds: view.freshness_policy_seconds,
    subjects: view.subjects,
    adapter_meta: view.adapter_meta,
  };
}

/**
 * The identity rule of a proposition's snapshots (STORES.md §1.5): a later snapshot may add or
 * leave out records, but may not reuse an id for different content. Returns what clashes, or
 * undefined. Lineage, completeness, freshness, subjects and a conflict's status/note belong to each
 * snapshot and may change freely.
 */
export function identityClash(committed: EvidenceView[], view: EvidenceView): string | undefined {
  const seen = new Map<string, string>();
  const claim = (key: string, content: unknown): string | undefined => {
    const text = JSON.stringify(content);
    const before = seen.get(key);
    if (before !== undefined && before !== text) return key;
    seen.set(key, text);
    return undefined;
  };
  for (const v of [...committed, view]) {
    for (const a of v.assertions) {
      const clash =
        claim(`assertion ${a.assertion_id}`, [a.proposition_id, a.text, a.asserted_by, Object.is(a.assertion_confidence, -0) ? '-0' : a.assertion_confidence, a.source.source_id, a.asserted_at]) ??
        claim(`source ${a.source.source_id}`, sourceText(a.source));
      if (clash) return clash;
    }
    for (const e of v.evidence) {
      const clash =
        claim(`evidence ${e.evidence_id}`, [e.proposition_id, e.polarity, e.source.source_id, e.content, e.observed_at]) ??
        claim(`source ${e.source.source_id}`, sourceText(e.source));
      if (clash) return clash;
    }
    for (const c of v.checks) {
      const clash =
        claim(`check ${c.check_id}`, [c.method, c.scope, c.source.source_id, c.observed_at, c.result, [...new Set(c.subjects)].sort()]) ??
        claim(`source ${c.source.source_id}`, sourceText(c.source));
      if (clash) return clash;
    }
    for (const c of v.conflicts) {
      const clash = claim(`conflict ${c.conflict_id}`, [...new Set(c.proposition_ids)].sort());
      if (clash) return clash;
    }
  }
  return undefined;
}
