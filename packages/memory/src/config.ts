/**
 * The one configuration section of the memory layer. The names and defaults of the first block are the
 * evidence-layer plan's; the second block is ours (the plan leaves them open). Every figure that decides
 * an outcome lives here, so it is configuration, never a constant buried in code.
 */
import { badInput } from './errors.js';
import { DEFAULT_SIMILARITY_MEASURE, isSimilarityMeasureName, SIMILARITY_MEASURE_NAMES, type SimilarityMeasureName } from './similarity.js';

/** The weights of the confidence formula (docs/spec/evidence-layer.md, confidence). */
export interface ConfidenceWeights {
  /** Added once a memory has at least one support. Default 30. */
  observation_w: number;
  /** Added per distinct independent source of support. Default 18. */
  source_w: number;
  /** Subtracted per refutation. Default 25. */
  refute_w: number;
  /** Subtracted per whole 30-day period since the last support. Default 5. */
  age_penalty: number;
}

/** The memory layer's configuration section. */
export interface MemoryConfig {
  /** Promotion passes the gate (true) or is let through unchecked (false). Default true. */
  gate_promotion: boolean;
  /** Distinct independent sources an inference or hypothesis needs to be promoted. Default 1. */
  min_independent_sources: number;
  /**
   * Similarity at or above which a same-source support is an echo. Default 0.6, chosen with the
   * default measure on the paraphrase set (a threshold belongs to its measure: see the memory README).
   */
  sim_threshold: number;
  /** Ours: the echo check's built-in measure, by name (`word-vectors`, `trigram-cosine`, `trigram-facts`). Default `word-vectors`. */
  measure: SimilarityMeasureName;
  /** How many nearest earlier texts a link compares with. Default 8. */
  search_k: number;
  confidence: ConfidenceWeights;
  /** Weight of confidence when ranking the hot set; 0 ranks by salience alone. Default 0. */
  eviction_evidence_bias: number;
  /** Ours: salience energy a recall or replay adds. Default 1. */
  recall_energy: number;
  /** Ours: energy at which promotion is attempted. Default 5. */
  promotion_energy: number;
  /** Ours: confidence at or above which a memory is shown as confirmed (besides warrant ACCEPTED). Default 60. */
  confirmed_confidence: number;
  /** Ours: how many memories each part (hot, confirmed) of the auto-context shows. Default 8. */
  hot_k: number;
  /**
   * Ours: the UTF-8 bytes of memory text each part of the auto-context may hold; a memory that does not
   * fit is left out and counted. Default 16,384.
   */
  context_max_bytes: number;
  /** Ours: how many memories the persona checkout (`MEMORY.md`) lists at most. Default 200. */
  checkout_max_rows: number;
  /** Ours: the UTF-8 bytes of the checkout's memory lines at most. Default 65,536. */
  checkout_max_bytes: number;
}

/** A partial configuration, as a user writes it (the weights may be given in part too). */
export type MemoryConfigInput = Partial<Omit<MemoryConfig, 'confidence'>> & { confidence?: Partial<ConfidenceWeights> };

/** The defaults. */
export const DEFAULT_MEMORY_CONFIG: Readonly<MemoryConfig> = Object.freeze({
  gate_promotion: true,
  min_independent_sources: 1,
  sim_threshold: 0.6,
  measure: DEFAULT_SIMILARITY_MEASURE,
  search_k: 8,
  confidence: Object.freeze({ observation_w: 30, source_w: 18, refute_w: 25, age_penalty: 5 }),
  eviction_evidence_bias: 0,
  recall_energy: 1,
  promotion_energy: 5,
  confirmed_confidence: 60,
  hot_k: 8,
  context_max_bytes: 16_384,
  checkout_max_rows: 200,
  checkout_max_bytes: 65_536,
});

function number(value: unknown, path: string, min: number, max: number, integer: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badInput(path, 'must be a finite number');
  if (integer && !Number.isSafeInteger(value)) throw badInput(path, 'must be an integer');
  if (value < min || value > max) throw badInput(path, `must be between ${min} and ${max}`);
  return value;
}

/**
 * The full configuration: `input` over the defaults, every value checked.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the field (`config.confidence.source_w`).
 */
export function resolveMemoryConfig(input: MemoryConfigInput = {}): MemoryConfig {
  const c = { ...DEFAULT_MEMORY_CONFIG, ...input, confidence: { ...DEFAULT_MEMORY_CONFIG.confidence, ...input.confidence } };
  const gate = c.gate_promotion as unknown;
  // The plan writes the switch as 1/0; true/false are accepted too.
  if (gate !== true && gate !== false && gate !== 1 && gate !== 0) throw badInput('config.gate_promotion', 'must be true, false, 1 or 0');
  const w = c.confidence;
  if (!isSimilarityMeasureName(c.measure)) throw badInput('config.measure', `must be one of ${SIMILARITY_MEASURE_NAMES.join(', ')}`);
  return {
    gate_promotion: gate === true || gate === 1,
    min_independent_sources: number(c.min_independent_sources, 'config.min_independent_sources', 0, 1000, true),
    sim_threshold: number(c.sim_threshold, 'config.sim_threshold', 0, 1, false),
    measure: c.measure,
    search_k: number(c.search_k, 'config.search_k', 1, 1000, true),
    confidence: {
      observation_w: number(w.observation_w, 'config.confidence.observation_w', 0, 100, true),
      source_w: number(w.source_w, 'config.confidence.source_w', 0, 100, true),
      refute_w: number(w.refute_w, 'config.confidence.refute_w', 0, 100, true),
      age_penalty: number(w.age_penalty, 'config.confidence.age_penalty', 0, 100, true),
    },
    eviction_evidence_bias: number(c.eviction_evidence_bias, 'config.eviction_evidence_bias', 0, 1000, false),
    recall_energy: number(c.recall_energy, 'config.recall_energy', 0, 1_000_000, false),
    promotion_energy: number(c.promotion_energy, 'config.promotion_energy', 0, 1e12, false),
    confirmed_confidence: number(c.confirmed_confidence, 'config.confirmed_confidence', 0, 100, true),
    hot_k: number(c.hot_k, 'config.hot_k', 0, 10_000, true),
    context_max_bytes: number(c.context_max_bytes, 'config.context_max_bytes', 0, 16 * 1024 * 1024, true),
    checkout_max_rows: number(c.checkout_max_rows, 'config.checkout_max_rows', 0, 1_000_000, true),
    checkout_max_bytes: number(c.checkout_max_bytes, 'config.checkout_max_bytes', 0, 256 * 1024 * 1024, true),
  };
}
