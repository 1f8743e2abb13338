/**
 * The memory layer's index: every memory's STORE facts, current class and promotion state, read from the
 * store's chain of memory events (by this or any other process), a word index for recall, and a cache
 * of the latest views read. Nothing here is authority: all of it is read back from the store.
 */
import type { EvidenceView, Instant, WarrantPiece } from '@ewp/core';
import type { EvidenceStore, LedgerEntry } from '@ewp/ledger';
import type { EvidenceCounts } from './evidence-counts.js';
import type { EpistemicClass } from './epistemic-class.js';
import { MemoryError } from './errors.js';
import { factsFromStoreEvent, MEMORY_EVENT_KINDS, type PromotionEventBody } from './memory-events.js';
import { type MemoryFacts, type OwnLineage, propositionOf } from './memory-records.js';
import { applyPromotionEvent, type PromotionState } from './promotion-gate.js';
import type { SalienceRecord, SalienceSlot } from './salience-store.js';

/** A memory as the index keeps it: its STORE facts and its current class. */
export interface Indexed extends PromotionState, SalienceSlot {
  facts: MemoryFacts;
  current: EpistemicClass;
  reclasses: number;
  /** Its own sources and lineages and those of what it was derived from (from STORE facts; computed on first need). */
  own?: OwnLineage;
  /**
   * The memory's salience as this layer works with it (undefined: never recalled). With the default
   * store this slot is where salience is kept (`InMemorySalienceStore` over the index's entries); with a
   * store given in the options it is read from that store when the memory is indexed and written through
   * to it on change.
   */
  salience: SalienceRecord | undefined;
}

/** A memory's latest view as read, with its counts once asked for. */
export interface CachedView {
  view: EvidenceView;
  /**
   * The counts with every record available, and the latest record time: at any T at or after it the
   * counts are these (only confidence's age term moves with T). Computed on first need.
   */
  settled?: { counts: EvidenceCounts; from: Instant | undefined };
  /**
   * The warrant's piece of T last computed for this view (`warrantWithHorizon`): while T stays in it the
   * warrant is the same but for `evaluated_at`. Dropped with the view, as the counts are.
   */
  piece?: WarrantPiece;
}

/** Views kept for reuse (the oldest goes first): a bound on memory, not on what can be recalled. */
const VIEW_CACHE = 10_000;
/** Entries read per query of the store. */
export const ENTRY_PAGE = 100_000;

const WORDS = /[\p{L}\p{N}]+/gu;
/** The distinct words of a text, lower-cased: what recall matches. */
export function wordsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(WORDS) ?? [])];
}

/** The index of the memories of one store. */
export class MemoryIndex {
  /** Every memory indexed, by hash. */
  readonly memories = new Map<string, Indexed>();
  readonly #store: EvidenceStore;
  /** The salience a memory starts with when it is indexed. */
  readonly #salienceOf: (hash: string) => SalienceRecord | undefined;
  readonly #words = new Map<string, Set<string>>();
  /** Latest views read, by hash; dropped when an event names the memory or the store's revision moves. */
  readonly #views = new Map<string, CachedView>();
  #lastIndex = -1;
  #revision: string | undefined;
  /**
   * Told what may have changed as events are read: a memory (`hash`) or anything (`null`). The
   * confirmed part's index (confirmed-index.ts) keeps itself by it.
   */
  onStale: (hash: string | null) => void = () => {};

  constructor(store: EvidenceStore, salienceOf: (hash: string) => SalienceRecord | undefined) {
    this.#store = store;
    this.#salienceOf = salienceOf;
  }

  /** Read the memory events appended since the last read (by this or any other process). */
  async refresh(): Promise<void> {
    const revision = await this.#store.revision?.();
    // An unchanged revision means nothing was committed since the last read (entries are chain events,
    // so they move it too): no query for entries, the recall hot path's largest cost before.
    if (revision !== undefined && revision === this.#revision) return;
    if (revision !== undefined) this.#views.clear();
    let read = 0;
    // By chain position only, kinds filtered here: a store answers `afterIndex` from its chain index,
    // where a kind filter may lead it to walk every memory event first.
    for (;;) {
      const page = await this.#store.readEntries({ afterIndex: this.#lastIndex, limit: ENTRY_PAGE });
      for (const entry of page) {
        // Two refreshes in flight read the same page: whichever comes second skips what the first
        // applied (a reclass applied twice would count twice).
        if (entry.chain_index <= this.#lastIndex) continue;
        this.#lastIndex = entry.chain_index;
        read += 1;
        if (entry.kind.startsWith('memory.')) this.#apply(entry);
        // Any entry naming a memory (of this layer or not) may have changed its view.
        for (const s of entry.subjects) if (s.startsWith('mem:')) this.onStale(s.slice(4));
      }
      if (page.length < ENTRY_PAGE) break;
    }
    // A commit that wrote no entry names nothing: any view may have changed.
    if (revision !== undefined && this.#revision !== undefined && read === 0) this.onStale(null);
    // Only once every entry up to it is read: a failed read is read again next time.
    this.#revision = revision;
  }

  #apply(entry: LedgerEntry): void {
    if (entry.kind === MEMORY_EVENT_KINDS.store) {
      const facts = factsFromStoreEvent(entry);
      if (!this.memories.has(facts.hash)) {
        this.memories.set(facts.hash, {
          facts,
          current: facts.class,
          reclasses: 0,
          salience: this.#salienceOf(facts.hash),
          promoted: false,
          blocked_at_state: null,
        });
        for (const w of wordsOf(facts.text)) {
          const set = this.#words.get(w);
          if (set === undefined) this.#words.set(w, new Set([facts.hash]));
          else set.add(facts.hash);
        }
      }
    } else if (entry.kind === MEMORY_EVENT_KINDS.reclass) {
      const m = this.memories.get(String(entry.body.memory));
      if (m !== undefined) {
        m.current = entry.body.to as EpistemicClass;
        m.reclasses += 1;
      }
    } else if (entry.kind === MEMORY_EVENT_KINDS.promoGate) {
      const m = this.memories.get(String(entry.body.memory));
      if (m !== undefined) applyPromotionEvent(m, entry.body as unknown as PromotionEventBody);
    }
    if (entry.kind !== MEMORY_EVENT_KINDS.promoGate) {
      // A link changes the target's view; a reclass changes which records count everywhere.
      if (entry.kind === MEMORY_EVENT_KINDS.reclass) {
        this.#views.clear();
        // A reclass changes which records count in every view.
        this.onStale(null);
      } else for (const s of entry.subjects) this.#views.delete(s.slice(4));
    }
  }

  /** The indexed memory `hash`, if any. */
  get(hash: string): Indexed | undefined {
    return this.memories.get(hash);
  }

  /**
   * The indexed memory `hash`.
   * @throws {MemoryError} `EWP_REFUSE_MEMORY_UNKNOWN` naming `path` when there is none.
   */
  known(hash: string, path: string): Indexed {
    const m = this.memories.get(hash);
    if (m === undefined) throw new MemoryError('EWP_REFUSE_MEMORY_UNKNOWN', `no memory ${JSON.stringify(hash)} in this store`, { path, memory: hash });
    return m;
  }

  /** The memories whose text holds `word` (lower-cased). */
  withWord(word: string): Iterable<string> {
    return this.#words.get(word) ?? [];
  }

  /** The memory's latest view, from the cache or read (and kept, unless `keep` is false: a pass over every memory). */
  async cached(hash: string, keep = true): Promise<CachedView> {
    let cached = this.#views.get(hash);
    if (cached === undefined) {
      const view = await this.#store.get(propositionOf(hash));
      if (view === undefined) throw new MemoryError('EWP_REFUSE_MEMORY_UNKNOWN', `memory ${hash} has no stored view`, { memory: hash });
      cached = { view };
      if (keep) {
        if (this.#views.size >= VIEW_CACHE) this.#views.delete(this.#views.keys().next().value!);
        this.#views.set(hash, cached);
      }
    }
    return cached;
  }

  /** Whether the cache holds a view of `hash` (`cached`, when given: that very one). */
  isCached(hash: string, cached?: CachedView): boolean {
    return cached === undefined ? this.#views.has(hash) : this.#views.get(hash) === cached;
  }

  /** Forget the cached view of `hash` (the caller just changed it). */
  dropView(hash: string): void {
    this.#views.delete(hash);
    this.onStale(hash);
  }
}
