import type { Assertion, EvidenceItem } from '@ewp/core';

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

const LONE_SURROGATE = /\p{Surrogate}/u;

/** A memory's text: the claim itself so Mem0 search finds it; a label when the claim is blank or not well-formed text. */
export function memoryText(kind: MemberKind, record: Assertion | EvidenceItem): string {
  const text = kind === 'assertion' ? (record as Assertion).text : (record as EvidenceItem).content;
  if (text.trim() === '' || text !== text.trim() || LONE_SURROGATE.test(text) || text.length > 4000) {
    return kind === 'assertion' ? '[ewp assertion]' : '[ewp evidence]';
  }
  return text;
}
