import type { EvidenceView } from '@ewp/core';

/** One field that differs between the view written and the view read back. */
export interface FieldDifference {
  /** Generalised path: record ids become `*` (`assertions[*].source.lineage_id`). */
  field: string;
  /** Concrete path (`assertions[a1].source.lineage_id`). */
  path: string;
  written: unknown;
  read: unknown;
}

type RecordKind = 'assertions' | 'evidence' | 'checks' | 'conflicts';
const RECORD_ID: Record<RecordKind, string> = {
  assertions: 'assertion_id',
  evidence: 'evidence_id',
  checks: 'check_id',
  conflicts: 'conflict_id',
};
/** Fields compared as sets of strings (order is not content, duplicates are). */
const UNORDERED = new Set(['subjects', 'proposition_ids', 'omitted_sources']);

function sortedCopy(list: unknown): unknown {
  return Array.isArray(list) ? [...list].map(String).sort() : list;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || (a === b && a !== 0);
  return JSON.stringify(a) === JSON.stringify(b);
}

function compareObject(written: Record<string, unknown>, read: Record<string, unknown>, field: string, path: string, out: FieldDifference[]): void {
  const keys = new Set([...Object.keys(written), ...Object.keys(read)]);
  for (const key of [...keys].sort()) {
    const w = written[key];
    const r = read[key];
    const f = `${field}.${key}`;
    const p = `${path}.${key}`;
    if (isPlainObject(w) && isPlainObject(r)) {
      compareObject(w, r, f, p, out);
    } else if (UNORDERED.has(key)) {
      if (!same(sortedCopy(w), sortedCopy(r))) out.push({ field: f, path: p, written: w, read: r });
    } else if (!same(w, r)) {
      out.push({ field: f, path: p, written: w, read: r });
    }
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compareRecords(kind: RecordKind, written: EvidenceView, read: EvidenceView, out: FieldDifference[]): void {
  const idKey = RECORD_ID[kind];
  const index = (view: EvidenceView) => {
    const byId = new Map<string, Record<string, unknown>>();
    for (const record of (view[kind] ?? []) as unknown as Record<string, unknown>[]) byId.set(String(record[idKey]), record);
    return byId;
  };
  const w = index(written);
  const r = index(read);
  for (const [id, record] of w) {
    const back = r.get(id);
    if (back === undefined) {
      out.push({ field: `${kind}[*]`, path: `${kind}[${id}]`, written: record, read: undefined });
    } else {
      compareObject(record, back, `${kind}[*]`, `${kind}[${id}]`, out);
    }
  }
  for (const [id, record] of r) {
    if (!w.has(id)) out.push({ field: `${kind}[*]`, path: `${kind}[${id}]`, written: undefined, read: record });
  }
}

function lineageKeys(view: EvidenceView): string[] {
  return view.lineage.map((e) => JSON.stringify([e.from_id, e.to_id, e.kind])).sort();
}

/**
 * Field-by-field difference of two decoded views, ignoring record order (docs/spec/protocol.md §8: order is not
 * content) and the adapter's own `adapter_meta` namespace.
 */
export function diffViews(written: EvidenceView, read: EvidenceView, metaNamespace?: string): FieldDifference[] {
  const out: FieldDifference[] = [];
  for (const key of ['proposition_id', 'view_id', 'retrieval_scope', 'degraded', 'freshness_policy_seconds'] as const) {
    if (!same(written[key], read[key])) out.push({ field: key, path: key, written: written[key], read: read[key] });
  }
  for (const key of ['subjects', 'omitted_sources'] as const) {
    if (!same(sortedCopy(written[key]), sortedCopy(read[key]))) {
      out.push({ field: key, path: key, written: written[key], read: read[key] });
    }
  }
  for (const kind of Object.keys(RECORD_ID) as RecordKind[]) compareRecords(kind, written, read, out);
  const wl = lineageKeys(written);
  const rl = lineageKeys(read);
  if (!same(wl, rl)) out.push({ field: 'lineage[*]', path: 'lineage', written: written.lineage, read: read.lineage });
  const readMeta = { ...(read.adapter_meta ?? {}) };
  if (metaNamespace !== undefined) delete readMeta[metaNamespace];
  compareObject(written.adapter_meta ?? {}, readMeta, 'adapter_meta', 'adapter_meta', out);
  return out;
}
