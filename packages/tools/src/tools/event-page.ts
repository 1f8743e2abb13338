/**
 * A memory's events as a bounded page, for `memory_evidence_show`, `memory_evidence_audit` and
 * `GET /v1/evidence/:hash`: a memory recalled often gathers many events (one per promotion attempt),
 * so the answer lists them oldest first up to the page byte bound (reply-page.ts) and says where to go on.
 */
import type { LedgerEntry } from '@ewp/ledger';
import { boundPage, type ShortenedItem } from '../reply-page.js';

/** What {@link pageEvents} answers in place of the whole `events` list. */
export interface EventPage {
  /** The events after the cursor that fit the page, oldest first; one too large is shortened (`truncated: true`). */
  events: (LedgerEntry | ShortenedItem)[];
  /** Every event of the answer, before paging. */
  events_total: number;
  /** The `events_after` of the next page; null when the page reached the last event. */
  events_next_cursor: number | null;
}

/** `result` with its `events` cut to the page after chain index `after`. */
export function pageEvents<T extends { events: LedgerEntry[] }>(result: T, after: number | undefined): Omit<T, 'events'> & EventPage {
  const rest = after === undefined ? result.events : result.events.filter((e) => e.chain_index > after);
  const page = boundPage(rest, (e) => ({ kind: e.kind, id: e.id, chain_index: e.chain_index }));
  const last = rest[page.taken - 1];
  return {
    ...result,
    events: page.items,
    events_total: result.events.length,
    events_next_cursor: page.taken < rest.length && last !== undefined ? last.chain_index : null,
  };
}
