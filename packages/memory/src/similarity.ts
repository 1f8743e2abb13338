/**
 * Text similarity for echo detection. The default needs no model and no network: cosine over
 * character trigrams of the normalized text. It catches near copies and light rewording (case,
 * punctuation, a word added or dropped); it cannot see a true paraphrase ("the nightly backup runs at
 * six" vs "the backup job starts at 06:00"), which only an embedder can. Any embedder plugs in.
 */

/** Similarity of one text to each candidate, each in [0, 1]. */
export interface SimilarityMeasure {
  /** Shown in LINK events, so an audit says which measure decided an echo. */
  readonly name: string;
  similarities(text: string, candidates: readonly string[]): Promise<number[]> | number[];
}

/** Any function from texts to vectors: Mem0's configured embedder, LangChain's `embedDocuments`, a local model. */
export type Embedder = (texts: readonly string[]) => Promise<readonly (readonly number[])[]> | readonly (readonly number[])[];

/** Lowercase, letters and digits only, single spaces: what the lexical measure compares. */
export function normalizeForSimilarity(text: string): string {
  return text
    .normalize('NFKC')
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

/** The default measure: trigram cosine (no model, no network, deterministic). */
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
