import type { Assertion, EvidenceItem } from '@ewp/core';
import type { SnapshotBody } from '@ewp/ledger';

/**
 * Episode metadata keys (8 of Zep's 10, all scalar). Records travel in the episode body as JSON,
 * so the metadata limit never constrains what a view may contain.
 */
export const META = {
  pid: 'ewp_pid',
  viewId: 'ewp_view_id',
  ingestId: 'ewp_ingest_id',
  seq: 'ewp_seq',
  kind: 'ewp_kind',
  key: 'ewp_key',
  part: 'ewp_part',
  parts: 'ewp_parts',
} as const;

export type ItemKind = 'assertion' | 'evidence' | 'snapshot';

export interface SnapshotItem {
  ewp: 'snapshot';
  digest: string;
  members: number;
  body: SnapshotBody;
}

export interface RecordItem {
  ewp: 'record';
  index: number;
  record: Record<string, unknown>;
}

/** One episode to add: its JSON body and its metadata. */
export interface EpisodeDraft {
  data: string;
  metadata: Record<string, string | number>;
}

/** `assertion_confidence` as text: JSON numbers cannot carry `-0`; shortest double text reads back exactly. */
export function recordItem(index: number, record: Assertion | EvidenceItem): RecordItem {
  const copy: Record<string, unknown> = { ...record };
  if ('assertion_confidence' in record) {
    copy.assertion_confidence = Object.is(record.assertion_confidence, -0) ? '-0' : String(record.assertion_confidence);
  }
  return { ewp: 'record', index, record: copy };
}

export function restoreRecord(item: RecordItem): Record<string, unknown> {
  const record = { ...item.record };
  if (typeof record.assertion_confidence === 'string') record.assertion_confidence = Number(record.assertion_confidence);
  return record;
}

/**
 * Splits one item's JSON into JSON episodes of at most `maxChars` characters each. Small items are
 * one episode whose body is the item itself; larger ones become parts `{"ewp":"part","text":…}`
 * whose texts concatenate back to the item's JSON.
 */
export function itemEpisodes(item: RecordItem | SnapshotItem, meta: Record<string, string | number>, maxChars: number): EpisodeDraft[] {
  const text = JSON.stringify(item);
  if (text.length <= maxChars) return [{ data: text, metadata: { ...meta, [META.part]: 1, [META.parts]: 1 } }];
  const budget = maxChars - JSON.stringify({ ewp: 'part', text: '' }).length;
  const chunks: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of text) {
    const cost = JSON.stringify(ch).length - 2;
    if (size + cost > budget) {
      chunks.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += cost;
  }
  if (current !== '') chunks.push(current);
  return chunks.map((chunk, i) => ({
    data: JSON.stringify({ ewp: 'part', text: chunk }),
    metadata: { ...meta, [META.part]: i + 1, [META.parts]: chunks.length },
  }));
}

/** Joins the bodies of one item's episodes (sorted by part) back into the item. */
export function joinEpisodes(bodies: string[]): unknown {
  if (bodies.length === 1) return JSON.parse(bodies[0]!);
  return JSON.parse(bodies.map((b) => (JSON.parse(b) as { text: string }).text).join(''));
}
