/**
 * The memory layer over any EvidenceStore (docs/spec/evidence-layer.md). Memories are EWP records in
 * the store (one write path, one audit chain); their events are ledger entries written in the same call
 * as the write they record. Confidence is derived from the records at an explicit T; salience lives in a
 * {@link SalienceStore} apart from every digest, evidence state and the chain.
 *
 * Every surface (CLI, MCP, REST) calls these methods; none restates a rule. This class is the table of
 * contents; each concern lives in its own file:
 * - writes (store, link, refute, reclass and their checks): memory-write.ts
 * - counts and confidence at T, a memory's state: memory-counts.ts
 * - the promotion gate's records (PROMO_GATE events, the pass, gate statistics): promotion.ts
 * - recall and the agent's context: memory-recall.ts
 * - show, audit and the persona file (checkout, read back): memory-checkout.ts
 * - the index of memories read from the chain: memory-index.ts
 */
import type { ChainVerification } from '@ewp/canonical';
import type { EvidenceStore, LedgerEntry } from '@ewp/ledger';
import type { MemoryConfig } from './config.js';
import type { EpistemicClass } from './epistemic-class.js';
import { audit, checkout, readBack, type ShownSalience, scopeStates, show } from './memory-checkout.js';
import type { MemoryState } from './memory-counts.js';
import { makeLayer, type MemoryLayer, type MemoryLedgerOptions } from './memory-layer.js';
import { type AutoContext, autoContext, plainContext, type RecallQuery, type RecallRow, recall, replay } from './memory-recall.js';
import { type LinkResult, linkMemories, reclassMemory, type StoreMemoryInput, type StoreMemoryResult, storeMemory } from './memory-write.js';
import { isPromoted, type PromotionStatistics, promotionPass, promotionStatistics } from './promotion.js';
import type { SalienceRecord, SalienceStore } from './salience-store.js';
import type { SimilarityMeasure } from './similarity.js';

/** The memory layer over one EvidenceStore. */
export class MemoryLedger {
  /** The store the memories are records of (the caller's: {@link close} leaves it open). */
  readonly evidenceStore: EvidenceStore;
  /** The settings, resolved. */
  readonly config: MemoryConfig;
  /** Where salience is kept. */
  readonly salience: SalienceStore;
  /** The echo check's measure (on cleaned text). */
  readonly similarity: SimilarityMeasure;
  readonly #layer: MemoryLayer;

  constructor(store: EvidenceStore, options: MemoryLedgerOptions = {}) {
    this.#layer = makeLayer(store, options);
    this.evidenceStore = store;
    this.config = this.#layer.config;
    this.salience = this.#layer.salience;
    this.similarity = this.#layer.similarity;
  }

  /** Read the memory events appended since the last read (by this or any other process). */
  refresh(): Promise<void> {
    return this.#layer.index.refresh();
  }

  // ---------------------------------------------------------------- writes (memory-write.ts)

  /**
   * Store a memory with its class; with `supports`, link it as support of each (it must be an
   * observation or evidence, in the same project). Storing the same text from the same source in the same
   * project again is a no-op; under another class it is refused (use {@link reclass}).
   * Everything is checked before anything is written.
   */
  store(input: StoreMemoryInput): Promise<StoreMemoryResult> {
    return storeMemory(this.#layer, input);
  }

  /** Link `support` (an observation or evidence) as support of `target`, with the echo check. */
  link(support: string, target: string): Promise<LinkResult> {
    return linkMemories(this.#layer, support, target, 'supports');
  }

  /** Link `refuter` (an observation or evidence) as refutation of `target`. */
  refute(refuter: string, target: string): Promise<LinkResult> {
    return linkMemories(this.#layer, refuter, target, 'opposes');
  }

  /**
   * Reclassify a memory: a RECLASS event, never an edit. Made an observation or evidence, a memory first
   * stored as a claim gains its own supporting record (in the same write); made an inference or
   * hypothesis, its records stop counting as support anywhere.
   */
  reclass(
    hash: string,
    to: EpistemicClass,
    reason?: string,
  ): Promise<{ hash: string; from: EpistemicClass; to: EpistemicClass; status: 'reclassified' | 'unchanged' }> {
    return reclassMemory(this.#layer, hash, to, reason);
  }

  // ---------------------------------------------------------------- reads (memory-checkout.ts)

  /**
   * A memory's state at T (default now): class, confidence, counts, warrant; whether it is promoted
   * (from the chain's PROMO_GATE events), its salience and its events.
   */
  show(hash: string, at?: string): Promise<MemoryState & { promoted: boolean; salience: ShownSalience; events: LedgerEntry[] }> {
    return show(this.#layer, hash, at);
  }

  /** Verify the store's chain (memory events included) and list a memory's events, or every memory event. */
  audit(hash?: string): Promise<{ chain: ChainVerification; events: LedgerEntry[] }> {
    return audit(this.#layer, hash);
  }

  // ---------------------------------------------------------------- recall and context (memory-recall.ts)

  /**
   * Recall memories: class and confidence on every row, filtered by class and `confidence_min`, ranked
   * by text match and then salience. Unless `touch` is false, each returned memory's salience rises, and
   * a memory whose energy reaches `promotion_energy` is put to the promotion gate.
   */
  recall(query: RecallQuery = {}): Promise<RecallRow[]> {
    return recall(this.#layer, query);
  }

  /** Replay (consolidation) of one memory: salience rises as on recall; evidence does not move. Returns a copy of its salience. */
  replay(hash: string, at?: string): Promise<SalienceRecord> {
    return replay(this.#layer, hash, at);
  }

  /**
   * The auto-context: "hot" (the most salient memories, each with class and confidence) and "confirmed"
   * (warrant ACCEPTED or confidence ≥ `confirmed_confidence`), as separate labelled parts. With
   * `eviction_evidence_bias` 0 the hot part is ranked by salience alone. Each part is bounded: at most
   * `limit` rows (default `hot_k`) and `maxBytes` bytes of memory text (default `context_max_bytes`);
   * `omitted` says how many qualifying memories were left out, so a ledger of any size gives a bounded context.
   * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the field (`project`, `at`, `limit`, `maxBytes`).
   */
  autoContext(options: { project?: string | null; at?: string; limit?: number; maxBytes?: number } = {}): Promise<AutoContext> {
    return autoContext(this.#layer, options);
  }

  /** The plain context, as before the evidence layer: the most salient memories' texts, nothing else. */
  plainContext(options: { project?: string | null; limit?: number } = {}): Promise<{ hash: string; text: string }[]> {
    return plainContext(this.#layer, options);
  }

  // ---------------------------------------------------------------- promotion (promotion.ts)

  /** Whether memory `hash` is promoted: an `allowed` PROMO_GATE event for it is in the chain. */
  isPromoted(hash: string): Promise<boolean> {
    return isPromoted(this.#layer, hash);
  }

  /**
   * The promotion pass: every memory whose energy has reached `promotion_energy` is put to the gate.
   * Decisions are appended in batches per transaction; a memory refused before is read again only if
   * its evidence or class changed since.
   */
  promotionPass(): Promise<{ examined: number; allowed: number; blocked: number; skipped: number }> {
    return promotionPass(this.#layer);
  }

  /** Promotions allowed and blocked, by reason, from the PROMO_GATE events committed in [from, to]. */
  gateStats(range: { from?: string; to?: string } = {}): Promise<PromotionStatistics> {
    return promotionStatistics(this.#layer, range);
  }

  // ---------------------------------------------------------------- persona file (memory-checkout.ts)

  /** Every memory of one scope with its state at T (for the persona checkout). */
  scopeStates(options: { project?: string | null; at?: string } = {}): Promise<(MemoryState & { salience: SalienceRecord })[]> {
    return scopeStates(this.#layer, options);
  }

  /**
   * The persona file of one scope: the memories promoted into the agent's context and those confirmed,
   * disputed ones stated as disputed, hypotheses as hypotheses; at most `checkout_max_rows` lines and
   * `checkout_max_bytes` bytes of them, with a closing note of how many were left out.
   */
  checkout(options: { project?: string | null; at?: string } = {}): Promise<string> {
    return checkout(this.#layer, options);
  }

  /**
   * Read an edited persona file back. A line left as checked out changes nothing; a changed or new line
   * becomes a new inference (derived from the memory it was checked out from, if marked), never
   * verification: its confidence starts at 0 whatever the line claims. Nothing is deleted.
   */
  readBack(markdown: string, options: { project?: string | null; source?: string } = {}): Promise<{ unchanged: number; asserted: StoreMemoryResult[] }> {
    return readBack(this.#layer, markdown, options);
  }

  // ---------------------------------------------------------------- the rest

  /** The time the ledger's clock says it is (for callers that must name T). */
  now(): string {
    return this.#layer.now();
  }

  /** Close the salience store (the EvidenceStore belongs to the caller). */
  close(): void {
    this.salience.close();
  }
}
