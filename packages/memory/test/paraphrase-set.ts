/**
 * The committed paraphrase set (fixtures/paraphrase-set.jsonl) and how a measure is scored on it:
 * recall (same-fact pairs judged an echo) and false-echo rate (different-fact pairs judged an echo) at
 * a threshold. Used by the test that holds the default measure to its goal and by the bench that
 * prints the table for every measure.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanText, type SimilarityMeasure, similarityMeasureNamed, trigramFactsSimilarity, trigramSimilarity } from '../src/similarity.js';
import { wordVectorSimilarity } from '../src/word-vector-similarity.js';

/** One pair: `same` (a paraphrase of one fact) or `different` (a near copy stating another fact). */
export interface ParaphrasePair {
  id: string;
  label: 'same' | 'different';
  /** `paraphrase`, `invisible` (same text with invisible or compatibility characters), or what differs. */
  kind: string;
  domain: string;
  a: string;
  b: string;
}

export const PARAPHRASE_SET_FILE = join(import.meta.dirname, 'fixtures', 'paraphrase-set.jsonl');

/** The pairs of the committed set. */
export function readParaphraseSet(file: string | undefined = PARAPHRASE_SET_FILE): ParaphrasePair[] {
  return readFileSync(file ?? PARAPHRASE_SET_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ParaphrasePair);
}

/** The measure's similarity of each pair, the measure fed cleaned text as the ledger feeds it. */
export async function scorePairs(measure: SimilarityMeasure, pairs: readonly ParaphrasePair[]): Promise<number[]> {
  const m = onCleanText(measure);
  const out: number[] = [];
  for (const p of pairs) out.push((await m.similarities(p.a, [p.b]))[0] ?? 0);
  return out;
}

/** Recall and false-echo rate at `threshold` (a pair is judged an echo at or above it, as the echo check does). */
export function ratesAt(pairs: readonly ParaphrasePair[], scores: readonly number[], threshold: number) {
  let same = 0;
  let caught = 0;
  let different = 0;
  let falseEcho = 0;
  const missed: string[] = [];
  const wrong: string[] = [];
  pairs.forEach((p, i) => {
    const echo = scores[i]! >= threshold;
    if (p.label === 'same') {
      same += 1;
      if (echo) caught += 1;
      else missed.push(p.id);
    } else {
      different += 1;
      if (echo) {
        falseEcho += 1;
        wrong.push(p.id);
      }
    }
  });
  return { threshold, same, different, recall: caught / same, falseEchoRate: falseEcho / different, missed, wrong };
}

/** The measures compared: today's default, the guarded variants and the word-vector ones. */
export function comparedMeasures(): { name: string; measure: SimilarityMeasure }[] {
  return [
    { name: 'trigram-cosine', measure: trigramSimilarity },
    { name: 'trigram-facts', measure: trigramFactsSimilarity },
    { name: 'word-vector-centroid', measure: wordVectorSimilarity({ mode: 'centroid', guard: false }) },
    { name: 'word-vector-align', measure: wordVectorSimilarity({ guard: false }) },
    { name: 'word-vectors', measure: similarityMeasureNamed('word-vectors') },
  ];
}

export const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9] as const;
