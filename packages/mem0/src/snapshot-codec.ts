import { createHash } from 'node:crypto';
import { type Assertion, canonicalViewText, type EvidenceItem, type EvidenceView } from '@ewp/core';

/**
 * Metadata keys the adapter writes on every memory. They are flat and prefixed so Mem0's metadata
 * filters can select them, and so they never collide with Mem0's reserved keys (`data`, `hash`,
 * `createdAt`, `updatedAt`, `textLemmatized`, `attributedTo`, entity ids, `expiration_date`).
 */
export const META = {
  pid: 'ewp_pid',
  kind: 'ewp_kind',
  viewId: 'ewp_view_id',
  ingestId: 'ewp_ingest_id',
  seq: 'ewp_seq',
  key: 'ewp_key',
  record: 'ewp_record',
  digest: 'ewp_digest',
  members: 'ewp_members',
  body: 'ewp_body',
} as const;

export type MemberKind = 'assertion' | 'evidence';
export const SNAPSHOT_KIND = 'snapshot';

/** What the snapshot memory carries besides the members. */
export interface SnapshotBody {
  checks: EvidenceView['checks'];
  conflicts: EvidenceView['conflicts'];
  lineage: EvidenceView['lineage'];
  omitted_sources: string[];
  retrieval_scope: string;
  degraded: boolean;
  freshness_policy_seconds: number;
  subjects: string[];
  adapter_meta: Record<string, unknown>;
}

/**
 * Records are stored as JSON text inside one metadata value, so Mem0 never sees (or rewrites)
 * their keys. `assertion_confidence` is written as text: JSON numbers cannot carry `-0`, and a
 * double's shortest text form reads back to the same double.
 */
export function encodeMember(index: number, record: Assertion | EvidenceItem): string {
  const copy: Record<string, unknown> = { ...record };
  if ('assertion_confidence' in record) {
    copy.assertion_confidence = Object.is(record.assertion_confidence, -0) ? '-0' : String(record.assertion_confidence);
  }
  return JSON.stringify({ i: index, r: copy });
}

export function decodeMember(text: unknown): { index: number; record: Record<string, unknown> } {
  if (typeof text !== 'string') throw new TypeError('record metadata is not text');
  const parsed = JSON.parse(text) as { i: unknown; r: Record<string, unknown> };
  if (typeof parsed.i !== 'number' || typeof parsed.r !== 'object' || parsed.r === null) throw new TypeError('record metadata has no record');
  const record = { ...parsed.r };
  if (typeof record.assertion_confidence === 'string') record.assertion_confidence = Number(record.assertion_confidence);
  return { index: parsed.i, record };
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

/** Digest of everything a snapshot is: its id, its canonical content (SPEC §8) and its adapter_meta. */
export function snapshotDigest(view: EvidenceView): string {
  const text = JSON.stringify([view.view_id, canonicalViewText(view), view.adapter_meta]);
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** A memory's text: the claim itself so Mem0 search finds it; a label when the claim is blank or not well-formed text. */
export function memoryText(kind: MemberKind, record: Assertion | EvidenceItem): string {
  const text = kind === 'assertion' ? (record as Assertion).text : (record as EvidenceItem).content;
  if (text.trim() === '' || text !== text.trim() || LONE_SURROGATE.test(text) || text.length > 4000) {
    return kind === 'assertion' ? '[ewp assertion]' : '[ewp evidence]';
  }
  return text;
}
