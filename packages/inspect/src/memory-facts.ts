/**
 * The memory panel's data: a memory of the evidence layer read through @ewp/memory's own
 * `MemoryLedger.show` (class, confidence and its counts at T, salience, events). Nothing here computes
 * confidence or decides anything; it only lays the events out for the page.
 */
import type { EvidenceStore, LedgerEntry } from '@ewp/ledger';
import {
  type PromotionEventBody,
  hashOfProposition,
  type LinkEventBody,
  MEMORY_EVENT_KINDS,
  type MemoryConfigInput,
  MemoryError,
  MemoryLedger,
  propositionOf,
  type ReclassEventBody,
  type SalienceStore,
} from '@ewp/memory';
import { SalienceFileReader } from './salience-file.js';
import type { MemoryGateAttempt, MemoryLink, MemoryPanel, MemoryReclass } from './wire.js';

/** Where the inspector finds what the evidence layer keeps outside the ledger. */
export interface MemoryOptions {
  /**
   * Salience (recall count, energy, importance) lives outside the ledger: a side file's path
   * (`<ledger>.salience.jsonl`, read-only, read again when it changes) or a `SalienceStore` (the
   * one of a `MemoryLedger` in this process). Without it the page says salience is not available.
   */
  salience?: string | SalienceStore;
  /** The memory layer's configuration the ledger was written under (thresholds, confidence weights). Default: the defaults. */
  config?: MemoryConfigInput;
}

/** A LINK/REFUTE event records similarities as integers in ten-thousandths (entry bodies hold no floats). */
const SIMILARITY_UNIT = 10_000;

/** The memory layer over one store, made on the first memory asked about. */
export class MemoryFacts {
  #ledger: MemoryLedger | undefined;
  readonly #salience: SalienceStore | undefined;
  readonly #salienceFrom: string;

  constructor(
    private readonly store: EvidenceStore,
    private readonly options: MemoryOptions & { now: () => Date },
  ) {
    const s = options.salience;
    this.#salience = typeof s === 'string' ? new SalienceFileReader(s) : s;
    this.#salienceFrom =
      typeof s === 'string' ? s : s === undefined ? 'not available: salience is kept outside the ledger, and the inspector was given none' : 'this process';
  }

  #memory(): MemoryLedger {
    this.#ledger ??= new MemoryLedger(this.store, {
      ...(this.options.config === undefined ? {} : { config: this.options.config }),
      ...(this.#salience === undefined ? {} : { salience: this.#salience }),
      now: () => this.options.now().toISOString(),
    });
    return this.#ledger;
  }

  /** The panel of `propositionId` at T, or `null` when it is no memory of the evidence layer. */
  async panel(propositionId: string, at: string): Promise<MemoryPanel | null> {
    const hash = hashOfProposition(propositionId);
    if (hash === undefined) return null;
    const memory = this.#memory();
    let shown: Awaited<ReturnType<MemoryLedger['show']>>;
    try {
      shown = await memory.show(hash, at);
    } catch (error) {
      // A `mem:` proposition with no STORE event was written by something else: no memory to show.
      if (MemoryError.isInstance(error) && error.code === 'EWP_REFUSE_MEMORY_UNKNOWN') return null;
      throw error;
    }
    const gate: MemoryGateAttempt[] = [];
    const links: MemoryLink[] = [];
    const reclasses: MemoryReclass[] = [];
    let stored: MemoryPanel['stored'] = null;
    for (const e of shown.events) {
      const at = { chain_index: e.chain_index, committed_at: e.committed_at };
      if (e.kind === MEMORY_EVENT_KINDS.store) stored = { ...at, class: body<{ class: MemoryPanel['class'] }>(e).class };
      else if (e.kind === MEMORY_EVENT_KINDS.promoGate) {
        const b = body<PromotionEventBody>(e);
        gate.push({
          ...at,
          decision: b.decision,
          reason: b.reason,
          class: b.class,
          distinct_sources: b.distinct_sources,
          min_independent_sources: b.min_independent_sources,
          view_id: b.view_id,
        });
      } else if (e.kind === MEMORY_EVENT_KINDS.link || e.kind === MEMORY_EVENT_KINDS.refute) {
        const b = body<LinkEventBody>(e);
        links.push({
          ...at,
          direction: b.target === hash ? 'in' : 'out',
          support: b.support,
          target: b.target,
          other: propositionOf(b.target === hash ? b.support : b.target),
          polarity: b.polarity,
          echo: b.echo,
          echo_of: b.echo_of,
          lineage_id: b.lineage_id,
          measure: b.measure,
          compared: b.nearest.length,
          similarity: (b.nearest[0]?.similarity ?? 0) / SIMILARITY_UNIT,
          threshold: b.threshold / SIMILARITY_UNIT,
        });
      } else if (e.kind === MEMORY_EVENT_KINDS.reclass) {
        const b = body<ReclassEventBody>(e);
        reclasses.push({ ...at, from: b.from, to: b.to, reason: b.reason });
      }
    }
    const c = memory.config;
    return {
      hash: shown.hash,
      proposition_id: shown.proposition_id,
      view_id: shown.view_id,
      text: shown.text,
      class: shown.class,
      project: shown.project,
      source: shown.source,
      evaluated_at: shown.evaluated_at,
      confidence: shown.confidence,
      counts: {
        support_count: shown.support_count,
        refute_count: shown.refute_count,
        distinct_sources: shown.distinct_sources,
        echo_count: shown.echo_count,
        self_support_count: shown.self_support_count,
        first_seen: shown.first_seen,
        last_support: shown.last_support,
        last_refute: shown.last_refute,
      },
      promoted: shown.promoted,
      salience: this.#salience === undefined ? null : shown.salience,
      salience_from: this.#salienceFrom,
      stored,
      gate,
      links,
      reclasses,
      config: {
        gate_promotion: c.gate_promotion,
        min_independent_sources: c.min_independent_sources,
        promotion_energy: c.promotion_energy,
        recall_energy: c.recall_energy,
        confirmed_confidence: c.confirmed_confidence,
      },
    };
  }

  /** Releases the salience file's private copy. */
  close(): void {
    if (this.#salience instanceof SalienceFileReader) this.#salience.close();
  }
}

/** An event's body as the type @ewp/memory writes it with (the kind was checked by the caller). */
function body<T>(entry: LedgerEntry): T {
  return entry.body as unknown as T;
}
