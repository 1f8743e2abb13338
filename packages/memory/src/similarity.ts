/**
 * Text similarity for echo detection, chosen by name ({@link SIMILARITY_MEASURE_NAMES}, the config's
 * `measure`) or given as any {@link SimilarityMeasure} or embedder. Every measure sees the text after
 * {@link cleanText} (NFKC, invisible characters removed), so a zero-width character cannot make a
 * repeat look new. The built-in measures need no network and no model download:
 * - `trigram-cosine`: cosine over character trigrams; catches near copies and light rewording, not paraphrase;
 * - `trigram-facts`: the same with the different-facts rule (fact-tokens.ts);
 * - `word-vectors` (the default): word-vector alignment with the different-facts rule (word-vector-similarity.ts).
 * The default was chosen on the committed paraphrase set (packages/memory/test/fixtures).
 */
import { cleanText, differentFacts, textFacts } from './fact-tokens.js';
import { wordVectorSimilarity } from './word-vector-similarity.js';

export { cleanText } from './fact-tokens.js';

/** Similarity of one text to each candidate, each in [0, 1]. */
export interface SimilarityMeasure {
  /** Shown in LINK events, so an audit says which measure decided an echo. */
  readonly name: string;
  similarities(text: string, candidates: readonly string[]): Promise<number[]> | number[];
}

/** Any function from texts to vectors: Mem0's configured embedder, LangChain's `embedDocuments`, a local model. */
export type Embedder = (texts: readonly string[]) => Promise<readonly (readonly number[])[]> | readonly (readonly number[])[];

/** Cleaned ({@link cleanText}), lowercase, letters and digits only, single spaces: what the lexical measure compares. */
export function normalizeForSimilarity(text: string): string {
  return cleanText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Character trigram counts of the normalized text, padded so short words still count. */
function trigramProfile(text: string): Map<string, number> {
  const padded = ` ${normalizeForSimilarity(text)} `;
  const grams = new Map<string, number>();
  const chars = Array.from(padded);
  for (let i = 0; i + 3 <= chars.length; i += 1) {
    const g = chars[i]! + chars[i + 1]! + chars[i + 2]!;
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

function profileCosine(a: Map<string, number>, b: Map<string, number>): number {
  if (a.size === 0 || b.size === 0) return a.size === b.size ? 1 : 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const v of a.values()) na += v * v;
  for (const v of b.values()) nb += v * v;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [g, v] of small) dot += v * (large.get(g) ?? 0);
  return dot / Math.sqrt(na * nb);
}

/** Cosine of two vectors; 0 when either is all zeros or their lengths differ. */
export function vectorCosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : Math.max(0, Math.min(1, dot / Math.sqrt(na * nb)));
}

/** A measure that answers at once (no model call): what the default is. */
export interface LexicalSimilarityMeasure extends SimilarityMeasure {
  similarities(text: string, candidates: readonly string[]): number[];
}

/** Trigram cosine (no model, no network, deterministic): the default before `word-vectors`. */
export const trigramSimilarity: LexicalSimilarityMeasure = Object.freeze({
  name: 'trigram-cosine',
  similarities(text: string, candidates: readonly string[]): number[] {
    const p = trigramProfile(text);
    return candidates.map((c) => profileCosine(p, trigramProfile(c)));
  },
});

/** A measure over an embedder: cosine of the vectors it returns for the text and the candidates, in one call. */
export function embedderSimilarity(embed: Embedder, name = 'embedder-cosine'): SimilarityMeasure {
  return {
    name,
    async similarities(text: string, candidates: readonly string[]): Promise<number[]> {
      if (candidates.length === 0) return [];
      const vectors = await embed([text, ...candidates]);
      const first = vectors[0] ?? [];
      return candidates.map((_, i) => vectorCosine(first, vectors[i + 1] ?? []));
    },
  };
}

/** Trigram cosine with the different-facts rule: 0 for two texts that state different facts. */
export const trigramFactsSimilarity: LexicalSimilarityMeasure = Object.freeze({
  name: 'trigram-facts',
  similarities(text: string, candidates: readonly string[]): number[] {
    const p = trigramProfile(text);
    const f = textFacts(text);
    return candidates.map((c) => (differentFacts(f, textFacts(c)) ? 0 : profileCosine(p, trigramProfile(c))));
  },
});

/** The names of the built-in measures, the values of the config's `measure`. */
export const SIMILARITY_MEASURE_NAMES = ['word-vectors', 'trigram-cosine', 'trigram-facts'] as const;

/** A built-in measure's name. */
export type SimilarityMeasureName = (typeof SIMILARITY_MEASURE_NAMES)[number];

/** The default measure's name (the best on the paraphrase set). */
export const DEFAULT_SIMILARITY_MEASURE: SimilarityMeasureName = 'word-vectors';

/** Whether `name` is a built-in measure's name. */
export function isSimilarityMeasureName(name: unknown): name is SimilarityMeasureName {
  return typeof name === 'string' && (SIMILARITY_MEASURE_NAMES as readonly string[]).includes(name);
}

let wordVectors: SimilarityMeasure | undefined;

/** The built-in measure of that name (the word-vector one is shared, so its vectors are read once per process). */
export function similarityMeasureNamed(name: SimilarityMeasureName): SimilarityMeasure {
  if (name === 'trigram-cosine') return trigramSimilarity;
  if (name === 'trigram-facts') return trigramFactsSimilarity;
  wordVectors ??= wordVectorSimilarity();
  return wordVectors;
}

/**
 * `measure` fed cleaned text ({@link cleanText}): how the ledger calls any measure, a caller's
 * embedder included, so invisible characters and compatibility forms never reach it.
 */
export function onCleanText(measure: SimilarityMeasure): SimilarityMeasure {
  return {
    name: measure.name,
    similarities: (text, candidates) => measure.similarities(cleanText(text), candidates.map(cleanText)),
  };
}
