/**
 * The `word-vectors` echo measure: an offline semantic similarity over the word vectors a registry
 * package ships (see word-vectors.ts), with the hard "different facts" rule of fact-tokens.ts on top.
 *
 * Each content word of one text is aligned with its best match in the other: 1 for the same word
 * (after a light stem), else the cosine of their vectors; numbers, times and periods match only
 * exactly. Rare words weigh more than common ones (by frequency rank). The score is the harmonic mean
 * of both directions' weighted averages, so a text that adds or drops much is less similar. Two texts
 * that state different facts ({@link differentFacts}) score 0.
 */
import { differentFacts, stem, substitution, type TextFacts, textFacts } from './fact-tokens.js';
import type { SimilarityMeasure } from './similarity.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

/** Options of {@link wordVectorSimilarity}. */
export interface WordVectorSimilarityOptions {
  /** Apply the different-facts rule (default true). */
  guard?: boolean;
  /** Align words (default) or compare the texts' mean vectors (`centroid`, a weaker baseline). */
  mode?: 'align' | 'centroid';
  /** Where the vectors come from; default the shipped package, read once per process. */
  vectors?: () => Promise<WordVectors>;
  /** Shown in LINK events. */
  name?: string;
}

/** Weight of a numeric anchor against a content word. */
const ANCHOR_WEIGHT = 2;

/** Cosine at or above which a replaced word counts as a synonym (starts/begins), below as another fact (customer/supplier). */
const SYNONYM_COSINE = 0.75;

/** Whether two words are one word in two forms: one's stem begins the other's (reach/reachable, configure/configuration). */
function sameWordStem(x: string, y: string): boolean {
  const [p, q] = [stem(x), stem(y)];
  return p.length >= 4 && q.length >= 4 && (p.startsWith(q) || q.startsWith(p));
}

/** Character-trigram Dice of two words: how a word without a vector still resembles its own derivations (misconfigured/configuration). */
function spellingSimilarity(x: string, y: string): number {
  if (x.length < 4 || y.length < 4) return 0;
  const grams = (w: string) => {
    const g = new Set<string>();
    for (let i = 0; i + 3 <= w.length; i += 1) g.add(w.slice(i, i + 3));
    return g;
  };
  const gx = grams(x);
  const gy = grams(y);
  let shared = 0;
  for (const g of gx) if (gy.has(g)) shared += 1;
  return (2 * shared) / (gx.size + gy.size);
}

/** Frequency rank a word without a vector weighs as: rare (a name, a term, a misspelling), whatever the vocabulary size. */
const UNLISTED_RANK = 100_000;

function weight(v: WordVectors, word: string): number {
  const row = v.rowOf(word);
  // Common words weigh about 1, words without a vector 3.
  return 1 + Math.log10(1 + (row ?? UNLISTED_RANK) / 1000);
}

interface Prepared {
  facts: TextFacts;
  rows: (number | undefined)[];
  weights: number[];
  /** Anchors that are not content words (numbers, times, periods, ordinals). */
  numeric: string[][];
}

function prepare(v: WordVectors, text: string): Prepared {
  const facts = textFacts(text);
  const contentSet = new Set(facts.content);
  return {
    facts,
    rows: facts.words.map((w) => v.rowOf(w)),
    weights: facts.words.map((w) => weight(v, w)),
    numeric: facts.anchors.filter((a) => !contentSet.has(a[0]!)),
  };
}

/** Weighted average, over `a`'s words and numeric anchors, of how well each is matched in `b`. */
function directed(v: WordVectors, a: Prepared, b: Prepared): number {
  let total = 0;
  let sum = 0;
  const bStems = new Set(b.facts.content);
  for (let i = 0; i < a.facts.content.length; i += 1) {
    const w = a.weights[i]!;
    total += w;
    if (bStems.has(a.facts.content[i]!)) {
      sum += w;
      continue;
    }
    const x = a.rows[i];
    let best = 0;
    b.rows.forEach((y, j) => {
      const cos = x !== undefined && y !== undefined ? v.dot(x, y) : 0;
      best = Math.max(best, cos, spellingSimilarity(a.facts.words[i]!, b.facts.words[j]!));
    });
    sum += w * best;
  }
  const bKeys = new Set(b.numeric.flat());
  for (const keys of a.numeric) {
    total += ANCHOR_WEIGHT;
    if (keys.some((k) => bKeys.has(k))) sum += ANCHOR_WEIGHT;
  }
  return total === 0 ? 0 : sum / total;
}

function centroid(v: WordVectors, p: Prepared): Float64Array {
  const c = new Float64Array(v.dimensions);
  p.rows.forEach((row, i) => {
    if (row !== undefined) v.addScaled(row, p.weights[i]!, c);
  });
  return c;
}

/** A word replaced by one that is not its synonym: the same sentence about another thing (penicillin/amoxicillin). */
function replacedFact(v: WordVectors, a: TextFacts, b: TextFacts): boolean {
  const sub = substitution(a, b);
  if (sub === undefined) return false;
  const near = (x: string, ys: string[]) =>
    ys.some((y) => {
      // The same word in another form (reach/reachable) is no other fact; a shared ending
      // (penicillin/amoxicillin) is no shared word.
      if (sameWordStem(x, y)) return true;
      const rx = v.rowOf(x);
      const ry = v.rowOf(y);
      return rx !== undefined && ry !== undefined && v.dot(rx, ry) >= SYNONYM_COSINE;
    });
  return !(sub.a.every((x) => near(x, sub.b)) && sub.b.every((y) => near(y, sub.a)));
}

function score(v: WordVectors, a: Prepared, b: Prepared, mode: 'align' | 'centroid', guard: boolean): number {
  if (guard && (differentFacts(a.facts, b.facts) || replacedFact(v, a.facts, b.facts))) return 0;
  if (mode === 'centroid') {
    const x = centroid(v, a);
    const y = centroid(v, b);
    let dot = 0;
    let nx = 0;
    let ny = 0;
    for (let d = 0; d < v.dimensions; d += 1) {
      dot += x[d]! * y[d]!;
      nx += x[d]! * x[d]!;
      ny += y[d]! * y[d]!;
    }
    return nx === 0 || ny === 0 ? 0 : Math.max(0, Math.min(1, dot / Math.sqrt(nx * ny)));
  }
  const p = directed(v, a, b);
  const r = directed(v, b, a);
  return p + r === 0 ? 0 : Math.min(1, (2 * p * r) / (p + r));
}

/**
 * The word-vector measure. The vectors are read on the first comparison that needs them (once per
 * process), never at construction, so a ledger that never compares never reads them.
 */
export function wordVectorSimilarity(options: WordVectorSimilarityOptions = {}): SimilarityMeasure {
  const guard = options.guard ?? true;
  const mode = options.mode ?? 'align';
  const vectors = options.vectors ?? (() => loadWordVectors());
  return {
    name: options.name ?? (mode === 'centroid' ? 'word-vector-centroid' : guard ? 'word-vectors' : 'word-vector-align'),
    async similarities(text: string, candidates: readonly string[]): Promise<number[]> {
      if (candidates.length === 0) return [];
      const v = await vectors();
      const a = prepare(v, text);
      return candidates.map((c) => score(v, a, prepare(v, c), mode, guard));
    },
  };
}
