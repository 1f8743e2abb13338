import { COMMIT_RECORD_META, type CommitRecord, commitRecordFromMetadata, commitRecordMetadata } from '@ewp/ledger';

/**
 * Episode metadata keys (7 of Zep's 10, all scalar): the record's fields ({@link COMMIT_RECORD_META})
 * and its part. A record's body travels in JSON episodes, so the metadata limit never constrains
 * what a view may contain.
 */
export const META = {
  ...COMMIT_RECORD_META,
  /** 0 on the text episode (the claim, what Zep's search finds); 1..parts on the body episodes. */
  part: 'ewp_part',
  parts: 'ewp_parts',
} as const;

/** One episode to add. */
export interface EpisodeDraft {
  type: 'text' | 'json';
  data: string;
  metadata: Record<string, string | number>;
}

/** The episode fields the store reads (the client's camelCase `Episode`). */
export interface ZepEpisode {
  uuid: string;
  content: string;
  createdAt: string;
  metadata?: Record<string, unknown>;
  processed?: boolean;
  score?: number;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The episodes of one record: first, when the record carries a claim that fits, a `text` episode
 * whose data is the claim itself (so Zep's own search and extraction see the claim); then the
 * record's body as one JSON episode `{"ewp":"record","body":…}`, split above `maxChars` into
 * `{"ewp":"part","text":…}` episodes whose texts concatenate back to that JSON.
 */
export function recordEpisodes(record: CommitRecord, maxChars: number): EpisodeDraft[] {
  const base = commitRecordMetadata(record);
  const drafts: EpisodeDraft[] = [];
  const text = record.text;
  if (text !== undefined && text.trim() !== '' && text.length <= maxChars && !LONE_SURROGATE.test(text)) {
    drafts.push({ type: 'text', data: text, metadata: { ...base, [META.part]: 0 } });
  }
  const json = JSON.stringify({ ewp: 'record', body: record.body });
  const chunks: string[] = [];
  if (json.length <= maxChars) chunks.push(json);
  else {
    const budget = maxChars - JSON.stringify({ ewp: 'part', text: '' }).length;
    let current = '';
    let size = 0;
    for (const ch of json) {
      const cost = JSON.stringify(ch).length - 2;
      if (size + cost > budget) {
        chunks.push(JSON.stringify({ ewp: 'part', text: current }));
        current = '';
        size = 0;
      }
      current += ch;
      size += cost;
    }
    if (current !== '') chunks.push(JSON.stringify({ ewp: 'part', text: current }));
  }
  for (const [i, data] of chunks.entries()) drafts.push({ type: 'json', data, metadata: { ...base, [META.part]: i + 1, [META.parts]: chunks.length } });
  return drafts;
}

/**
 * Records rebuilt from their episodes. A record is returned only when every body part is there and
 * processed by Zep; one still processing (or with a part deleted) is not listed.
 */
export function recordsFromEpisodes(episodes: readonly ZepEpisode[]): CommitRecord[] {
  const groups = new Map<string, { text?: string; parts: Map<number, string>; of: number; meta: Record<string, unknown> }>();
  for (const e of episodes) {
    const m = e.metadata ?? {};
    if (typeof m[META.key] !== 'string' || typeof m[META.family] !== 'string' || e.processed === false) continue;
    let g = groups.get(m[META.key] as string);
    if (g === undefined) {
      g = { parts: new Map(), of: 0, meta: m };
      groups.set(m[META.key] as string, g);
    }
    if (m[META.part] === 0) g.text = e.content;
    else if (Number.isInteger(m[META.part]) && Number.isInteger(m[META.parts])) {
      g.parts.set(m[META.part] as number, e.content);
      g.of = m[META.parts] as number;
    }
  }
  const out: CommitRecord[] = [];
  for (const g of groups.values()) {
    if (g.of === 0 || g.parts.size !== g.of) continue;
    let body: unknown;
    try {
      const texts = Array.from({ length: g.of }, (_, i) => g.parts.get(i + 1) as string);
      const item = JSON.parse(g.of === 1 ? (texts[0] as string) : texts.map((t) => (JSON.parse(t) as { text: string }).text).join('')) as { body?: unknown };
      body = item.body;
    } catch {
      continue;
    }
    if (typeof body !== 'string') continue;
    const record = commitRecordFromMetadata(g.meta, body, g.text);
    if (record !== undefined) out.push(record);
  }
  return out;
}
