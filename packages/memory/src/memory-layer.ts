/**
 * What every part of the memory layer works on ({@link MemoryLayer}): the store, the settings, the
 * salience store and the index, made once per `MemoryLedger` from its options.
 */
import type { Instant } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type MemoryConfig, type MemoryConfigInput, resolveMemoryConfig } from './config.js';
import { ConfirmedIndex } from './confirmed-index.js';
import { maySupport } from './epistemic-class.js';
import { type Indexed, MemoryIndex } from './memory-index.js';
import { instantOf } from './memory-input.js';
import { memoryOfRecord } from './memory-records.js';
import { fillSlot, InMemorySalienceStore, type SalienceRecord, type SalienceStore } from './salience-store.js';
import { type Embedder, embedderSimilarity, onCleanText, type SimilarityMeasure, similarityMeasureNamed } from './similarity.js';

/** How a `MemoryLedger` is made. */
export interface MemoryLedgerOptions {
  /** The configuration section (defaults: {@link DEFAULT_MEMORY_CONFIG}). */
  config?: MemoryConfigInput;
  /** Where salience is kept. Default: in memory, on this layer's own entry of each memory. */
  salience?: SalienceStore;
  /** The echo check's measure. Default: the config's `measure` (built-in, by name); `embedder` is the shorthand for an embedder. */
  similarity?: SimilarityMeasure;
  /** Vectors for texts (Mem0's embedder, LangChain's `embedDocuments`, any function). */
  embedder?: Embedder;
  /** The clock for write times and the default T: an ISO-8601 instant. Default: the system clock. */
  now?: () => string;
}

/** T as text and as an instant. */
export interface At {
  text: string;
  instant: Instant;
}

/** The memory layer's shared parts (internal: the facade and the parts of each concern read them). */
export interface MemoryLayer {
  readonly evidenceStore: EvidenceStore;
  readonly config: MemoryConfig;
  readonly salience: SalienceStore;
  readonly similarity: SimilarityMeasure;
  /** Salience is kept in a store given in the options, not in the index's own slots. */
  readonly salienceElsewhere: boolean;
  readonly now: () => string;
  readonly index: MemoryIndex;
  /** The confirmed part's index, kept by the index's reads. */
  readonly confirmed: ConfirmedIndex;
  /** Whether a record counts: unless it is a memory's record and that memory is now an inference or hypothesis. */
  readonly qualifies: (recordId: string) => boolean;
}

/** The layer over `store` as `options` say. */
export function makeLayer(store: EvidenceStore, options: MemoryLedgerOptions): MemoryLayer {
  const config = resolveMemoryConfig(options.config);
  const index: MemoryIndex = new MemoryIndex(store, (hash) => salience.get(hash));
  const confirmed = new ConfirmedIndex();
  index.onStale = (hash) => (hash === null ? confirmed.invalidateAll() : confirmed.invalidate(hash));
  const salience: SalienceStore =
    options.salience ??
    new InMemorySalienceStore(
      (hash) => index.get(hash),
      () => index.memories,
    );
  return {
    evidenceStore: store,
    config,
    salience,
    // Every measure, a caller's included, compares cleaned text (NFKC, no invisible characters).
    similarity: onCleanText(options.similarity ?? (options.embedder ? embedderSimilarity(options.embedder) : similarityMeasureNamed(config.measure))),
    salienceElsewhere: options.salience !== undefined,
    now: options.now ?? (() => new Date().toISOString()),
    index,
    confirmed,
    qualifies: (recordId) => {
      const h = memoryOfRecord(recordId);
      const m = h === undefined ? undefined : index.get(h);
      return m === undefined || maySupport(m.current);
    },
  };
}

/** T: `at` if given (checked, naming `path`), else the layer's clock. */
export function timeOf(layer: MemoryLayer, at: string | undefined, path = 'at'): At {
  const text = at ?? layer.now();
  return { text, instant: instantOf(text, path) };
}

/** Keep a memory's changed salience `s`: in its slot (the default store's whole work) and through to a store given in the options. */
export function keepSalience(layer: MemoryLayer, m: Indexed, hash: string, s: SalienceRecord): void {
  fillSlot(m, s);
  if (layer.salienceElsewhere) layer.salience.set(hash, s);
}
