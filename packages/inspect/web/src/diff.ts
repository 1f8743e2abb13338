/** Record-level difference between two snapshots of a proposition. */
import type { EvidenceView } from '@ewp/core';

export interface SnapshotDiff {
  /** e.g. `checks`, `lineage`, `retrieval` */
  part: string;
  added: string[];
  removed: string[];
  changed: string[];
}

function keyed<T>(items: readonly T[], key: (item: T) => string): Map<string, string> {
  return new Map(items.map((item) => [key(item), JSON.stringify(item)]));
}

function compare(part: string, a: Map<string, string>, b: Map<string, string>): SnapshotDiff {
  const added = [...b.keys()].filter((k) => !a.has(k));
  const removed = [...a.keys()].filter((k) => !b.has(k));
  const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k));
  return { part, added, removed, changed };
}

/** What `to` has that `from` has not, per part of the view; unchanged parts are left out. */
export function diffSnapshots(from: EvidenceView, to: EvidenceView): SnapshotDiff[] {
  const edge = (e: { from_id: string; kind: string; to_id: string }) => `${e.from_id} ${e.kind} ${e.to_id}`;
  const scalars = (v: EvidenceView) =>
    new Map<string, string>([
      ['retrieval_scope', JSON.stringify(v.retrieval_scope)],
      ['degraded', JSON.stringify(v.degraded)],
      ['freshness_policy_seconds', JSON.stringify(v.freshness_policy_seconds)],
      ['subjects', JSON.stringify(v.subjects)],
    ]);
  const parts = [
    compare(
      'assertions',
      keyed(from.assertions, (a) => a.assertion_id),
      keyed(to.assertions, (a) => a.assertion_id),
    ),
    compare(
      'evidence',
      keyed(from.evidence, (e) => e.evidence_id),
      keyed(to.evidence, (e) => e.evidence_id),
    ),
    compare(
      'checks',
      keyed(from.checks, (c) => c.check_id),
      keyed(to.checks, (c) => c.check_id),
    ),
    compare(
      'conflicts',
      keyed(from.conflicts, (c) => c.conflict_id),
      keyed(to.conflicts, (c) => c.conflict_id),
    ),
    compare('lineage', keyed(from.lineage, edge), keyed(to.lineage, edge)),
    compare(
      'omitted_sources',
      keyed(from.omitted_sources, (s) => s),
      keyed(to.omitted_sources, (s) => s),
    ),
    compare('retrieval', scalars(from), scalars(to)),
  ];
  return parts.filter((p) => p.added.length + p.removed.length + p.changed.length > 0);
}
