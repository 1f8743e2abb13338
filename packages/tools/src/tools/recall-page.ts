/**
 * Recall as a bounded page, for `memory_recall` and `POST /v1/recall`: at most `limit` rows and
 * the page byte bound (reply-page.ts), with `next_cursor` (the rank to go on from) when more rows follow.
 * A memory's text can be as long as the field limit allows, so rows are cut by bytes as well as by count.
 */
import type { MemoryLedger, RecallQuery, RecallRow } from '@ewp/memory';
import { invalidArgument } from '../refusal.js';
import { boundPage, type ShortenedItem } from '../reply-page.js';

/** Rows a recall answers when no limit is given (the memory ledger's own default). */
const DEFAULT_RECALL_LIMIT = 10;
/** How deep the recall ranking can be paged: the memory ledger answers at most this many rows. */
const MAX_RECALL_RANK = 1000;

/** A page of recalled rows; a row too large for the page is shortened and carries `truncated: true`. */
export interface RecallPage {
  rows: (RecallRow | ShortenedItem)[];
  /** The `cursor` of the next page; null when no row follows (or the ranking's depth is reached). */
  next_cursor: string | null;
}

/**
 * The page of `query`'s ranking that starts at `cursor`.
 * @throws ToolRefusal `EWP_REFUSE_INVALID_ARGUMENTS` at `$.cursor` for a cursor no page answered
 */
export async function recallPage(memory: MemoryLedger, query: RecallQuery, cursor: string | undefined): Promise<RecallPage> {
  if (cursor !== undefined && (!/^\d{1,4}$/.test(cursor) || Number(cursor) >= MAX_RECALL_RANK))
    throw invalidArgument('$.cursor', 'must be the next_cursor of a previous recall page');
  const from = cursor === undefined ? 0 : Number(cursor);
  const limit = query.limit ?? DEFAULT_RECALL_LIMIT;
  // The ranking is read to one row past the page (when the ledger's bound allows) to tell whether more follow.
  const ranked = await memory.recall({ ...query, limit: Math.min(from + limit + 1, MAX_RECALL_RANK) });
  const window = ranked.slice(from, from + limit);
  const page = boundPage(window, (r) => ({ hash: r.hash, class: r.class, confidence: r.confidence, score: r.score }));
  const more = page.taken < window.length || ranked.length > from + limit;
  return { rows: page.items, next_cursor: more ? String(from + page.taken) : null };
}
