/**
 * The materialized warrant table: a stored snapshot's warrant pieces (`warrantWithHorizon` of @ewp/core),
 * computed at the first read and answered by lookup while T stays inside a piece.
 *
 * Correctness rests on the ledger's revision (`EvidenceStore.revision`): an entry is kept under the revision
 * read before its snapshot was read, and answers only while a fresh read of the revision gives the same text.
 * Two equal revisions read in turn mean nothing was committed between them by any process, so the
 * snapshot the entry was computed from is still the one a read would return: a new snapshot, a retraction
 * (a new snapshot or a ledger entry) and anything another connection commits to the same file or database
 * all change it. A lookup therefore skips the store read, and with it the digest check and the view identity
 * check the read makes, only where that read would return the very rows already checked; every entry was
 * computed from a view that passed them. Past a piece's `until`, the snapshot is read again (checked again)
 * and the piece at the new T computed. A table computes under one policy (its option), so a change of
 * policy is a table of its own and never meets another policy's entries.
 *
 * Bounded: at most `maxEntries` latest snapshots and as many asked for by view id (least recently used go first) and four
 * pieces each; it holds warrants, never views, and can always be rebuilt.
 */
import {
  type EvidenceView,
  type Instant,
  InvalidArgumentError,
  parseEvaluatedAt,
  type Policy,
  pieceContains,
  REFERENCE_V2,
  type WarrantPiece,
  type WarrantView,
  warrantWithHorizon,
} from '@ewp/core';
import { type EvidenceStore, TurnRevision } from '@ewp/ledger';
import { toRefusal } from './refusal.js';
import { loadStoredView } from './stored-view.js';

/** Propositions kept per store by default: a 10,000-proposition ledger walked in turn stays inside it. */
export const DEFAULT_WARRANT_TABLE_ENTRIES = 16_384;

interface Entry {
  /** The ledger revision read before the snapshot was. */
  revision: string;
  /** Most recently used first. */
  pieces: WarrantPiece[];
}

/** Options of a {@link WarrantTable}. */
export interface WarrantTableOptions {
  /** Latest snapshots kept, and as many asked for by view id (least recently used evicted first); default {@link DEFAULT_WARRANT_TABLE_ENTRIES}. */
  maxEntries?: number;
  /** The policy the warrants are computed under; default `reference-v2`. */
  policy?: Policy;
}

/**
 * A store's warrant pieces by proposition (see the module's comment): `warrantAt` answers as a store read
 * and `warrantNow` would, from a kept piece while the ledger's revision is unchanged.
 */
export class WarrantTable {
  /** Pieces kept per proposition: callers asking at a few different T (now, a past audit time) keep each. */
  static readonly PIECES_PER_PROPOSITION = 4;

  /**
   * The key of a (proposition, view id) pair among those asked for by view id: length-prefixed, so no two
   * pairs share one, whatever their characters. A cache beside the table keys its entries the same way.
   */
  static viewKey(propositionId: string, viewId: string): string {
    return `${propositionId.length}:${propositionId}${viewId}`;
  }

  /** Latest snapshots, by proposition id; in use order, the least recently used first. */
  private readonly latest = new Map<string, Entry>();
  /** Snapshots asked for by view id, by proposition id and view id. */
  private readonly exact = new Map<string, Entry>();
  private readonly store: EvidenceStore;
  /** The ledger's revision, read once per run to completion; undefined for a store that has none. */
  private readonly revisions: TurnRevision | undefined;
  private readonly maxEntries: number;
  private readonly policy: Policy;
  /** The last T parsed, and its instant: callers ask at one T (or a few) many times in a row. */
  private lastT: string | undefined;
  private lastInstant: Instant | undefined;
  /** Lookups answered without reading the store (for tests and benches). */
  hits = 0;
  /** Lookups that read the store (for tests and benches). */
  misses = 0;

  /**
   * A table over `store` (no read happens until the first lookup).
   * @throws InvalidArgumentError when `options.maxEntries` is not a positive integer
   */
  constructor(store: EvidenceStore, options: WarrantTableOptions = {}) {
    this.store = store;
    this.revisions = typeof store.revision === 'function' ? new TurnRevision(() => (store.revision as () => Promise<string>).call(store)) : undefined;
    const max = options.maxEntries ?? DEFAULT_WARRANT_TABLE_ENTRIES;
    if (!Number.isSafeInteger(max) || max < 1) throw new InvalidArgumentError('maxEntries', `must be a positive integer, got ${String(max)}`);
    this.maxEntries = max;
    this.policy = options.policy ?? REFERENCE_V2;
  }

  /** Entries kept now (latest snapshots and snapshots asked for by view id). */
  get size(): number {
    return this.latest.size + this.exact.size;
  }

  /**
   * The raw WarrantView of the proposition's latest snapshot (or exactly `viewId`) at T, as
   * `warrantNow(await store.get(...), policy, evaluatedAt)` gives it. The lists are shared with the
   * table: treat the result as read-only.
   * @throws ToolRefusal as `loadStoredView` and `evaluate` refuse
   */
  async warrantAt(propositionId: string, viewId: string | undefined, evaluatedAt: string): Promise<WarrantView> {
    const w = await this.pieceWarrant(propositionId, viewId, evaluatedAt);
    return w.evaluated_at === evaluatedAt ? w : { ...w, evaluated_at: evaluatedAt };
  }

  /**
   * As {@link WarrantTable.warrantAt}, but the WarrantView is the kept piece's as it is: every field is the one at T
   * except `evaluated_at`, which is the T the piece was computed at. For a caller that writes T itself
   * (`ewp_warrant_now`), saving a copy of the view per call.
   */
  async pieceWarrant(propositionId: string, viewId: string | undefined, evaluatedAt: string): Promise<WarrantView> {
    // A store that cannot say its revision (none, or unavailable): nothing is answered from the table.
    const revision = this.revisions === undefined ? undefined : await this.revisions.current();
    // Two maps rather than one composite key: no key string built per call.
    const map = viewId === undefined ? this.latest : this.exact;
    const key = viewId === undefined ? propositionId : WarrantTable.viewKey(propositionId, viewId);
    const entry = revision === undefined ? undefined : map.get(key);
    if (entry !== undefined && entry.revision === revision) {
      const found = this.lookup(entry, evaluatedAt);
      if (found !== undefined) {
        this.hits += 1;
        // Most recently used: to the end of the map's order.
        map.delete(key);
        map.set(key, entry);
        return found;
      }
    }
    this.misses += 1;
    const view = await loadStoredView(this.store, propositionId, viewId);
    const piece = this.pieceOf(view, evaluatedAt);
    if (revision !== undefined) this.keep(map, key, entry !== undefined && entry.revision === revision ? entry : { revision, pieces: [] }, piece);
    return piece.warrant;
  }

  /**
   * The kept piece of the proposition's latest snapshot (or exactly `viewId`) that holds at T, when it
   * was computed under ledger revision `revision`; else `undefined`. Reads nothing (neither the store
   * nor the revision) and changes no use order: for a caller that keeps something derived from a piece
   * (the MCP server keeps its reply text) and must know which snapshot, under which revision, it came from.
   * @throws ToolRefusal when `evaluatedAt` is not an instant (as `warrantAt` refuses it)
   */
  keptPiece(propositionId: string, viewId: string | undefined, evaluatedAt: string, revision: string): WarrantPiece | undefined {
    const entry = viewId === undefined ? this.latest.get(propositionId) : this.exact.get(WarrantTable.viewKey(propositionId, viewId));
    if (entry === undefined || entry.revision !== revision) return undefined;
    const t = this.instant(evaluatedAt);
    for (const p of entry.pieces) if (pieceContains(p, t)) return p;
    return undefined;
  }

  /** Drop every entry (a caller that changed what the revision does not see, such as the policy tables). */
  clear(): void {
    this.latest.clear();
    this.exact.clear();
  }

  /** T parsed as `warrantNow` parses it; the last one is remembered. */
  private instant(evaluatedAt: string): Instant {
    if (evaluatedAt === this.lastT) return this.lastInstant as Instant;
    let t: Instant;
    try {
      t = parseEvaluatedAt(evaluatedAt);
    } catch (error) {
      throw toRefusal(error);
    }
    this.lastT = evaluatedAt;
    this.lastInstant = t;
    return t;
  }

  private lookup(entry: Entry, evaluatedAt: string): WarrantView | undefined {
    const t = this.instant(evaluatedAt);
    const pieces = entry.pieces;
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i] as WarrantPiece;
      if (!pieceContains(p, t)) continue;
      if (i > 0) {
        pieces.splice(i, 1);
        pieces.unshift(p);
      }
      return p.warrant;
    }
    return undefined;
  }

  private pieceOf(view: EvidenceView, evaluatedAt: string): WarrantPiece {
    try {
      return warrantWithHorizon(view, this.policy, evaluatedAt);
    } catch (error) {
      throw toRefusal(error);
    }
  }

  private keep(map: Map<string, Entry>, key: string, entry: Entry, piece: WarrantPiece): void {
    entry.pieces.unshift(piece);
    if (entry.pieces.length > WarrantTable.PIECES_PER_PROPOSITION) entry.pieces.length = WarrantTable.PIECES_PER_PROPOSITION;
    map.delete(key);
    map.set(key, entry);
    if (map.size > this.maxEntries) {
      for (const oldest of map.keys()) {
        map.delete(oldest);
        if (map.size <= this.maxEntries) break;
      }
    }
  }
}

const TABLES = new WeakMap<EvidenceStore, WarrantTable>();

/** The one warrant table of `store` (under `reference-v2`), shared by every read path over it. */
export function warrantTableFor(store: EvidenceStore): WarrantTable {
  let table = TABLES.get(store);
  if (table === undefined) {
    table = new WarrantTable(store);
    TABLES.set(store, table);
  }
  return table;
}
