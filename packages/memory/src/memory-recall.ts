/**
 * Recall and the agent's context: memories found by text and ranked by salience, each with class and
 * confidence; a recall feeds salience (and may put a memory to the promotion gate). The auto-context
 * keeps "hot" (salience) and "confirmed" (evidence) apart, each labelled and bounded.
 */
import type { Warrant } from '@ewp/core';
import { type EpistemicClass, isEpistemicClass } from './epistemic-class.js';
import { badInput } from './errors.js';
import { confidenceAt, isDisputedMemory, stateOf } from './memory-counts.js';
import { type Indexed, wordsOf } from './memory-index.js';
import { checkProject, checkText } from './memory-input.js';
import { type At, type MemoryLayer, timeOf } from './memory-layer.js';
import { attemptPromotion, isDue } from './promotion.js';
import { copyInto, copyOf, emptySalience, type SalienceRecord } from './salience-store.js';

/** What `recall` takes. */
export interface RecallQuery {
  /** Text to match; absent: the most salient memories. */
  query?: string;
  /** Scope; absent or null: global memories only. `'*'` for every scope. */
  project?: string | null;
  class?: EpistemicClass | readonly EpistemicClass[];
  confidence_min?: number;
  /** Default 10, at most 1000. */
  limit?: number;
  /** T for confidence. Default: now. */
  at?: string;
  /** False: a plain recall that leaves salience untouched. Default true (recall feeds salience). */
  touch?: boolean;
}

/** One recalled memory. */
export interface RecallRow {
  hash: string;
  text: string;
  class: EpistemicClass;
  confidence: number;
  project: string | null;
  source: string;
  /** The text match, 0–1 (1 with no query). */
  score: number;
  salience: SalienceRecord;
}

/** A row of the auto-context. */
export interface ContextRow {
  hash: string;
  text: string;
  class: EpistemicClass;
  confidence: number;
  acceptance: Warrant['acceptance'];
  conflict: Warrant['conflict'];
  disputed: boolean;
  salience: SalienceRecord;
}

/** The context an agent gets before a turn: "hot" and "confirmed" apart, each labelled. */
export interface AutoContext {
  evaluated_at: string;
  project: string | null;
  hot: ContextPart;
  confirmed: ContextPart;
}

/** One labelled part of the auto-context. */
export interface ContextPart {
  label: string;
  rows: ContextRow[];
  /** Memories that qualified for this part but were left out by its row or byte bound. */
  omitted: number;
}

/** The salience of a memory never recalled, for reading only. */
const NO_SALIENCE: Readonly<SalienceRecord> = Object.freeze(emptySalience());

const HOT_LABEL = 'hot: recalled often or recently (salience). Not evidence: say a hot inference or hypothesis is unconfirmed.';
const CONFIRMED_LABEL = 'confirmed: warrant ACCEPTED, or confidence at or above the threshold from independent observations.';

/** Salience order: energy, then recall count, then the latest recall, then hash (a total order). */
function bySalience(a: [string, SalienceRecord], b: [string, SalienceRecord]): number {
  return (
    b[1].energy - a[1].energy ||
    b[1].recall_count - a[1].recall_count ||
    (b[1].last_recalled_at ?? '').localeCompare(a[1].last_recalled_at ?? '') ||
    (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
  );
}

/**
 * Recall memories: class and confidence on every row, filtered by class and `confidence_min`, ranked
 * by text match and then salience. Unless `touch` is false, each returned memory's salience rises, and
 * a memory whose energy reaches `promotion_energy` is put to the promotion gate.
 */
export async function recall(layer: MemoryLayer, query: RecallQuery = {}): Promise<RecallRow[]> {
  const text = query.query === undefined || query.query === '' ? undefined : checkText(query.query, 'query');
  const allScopes = query.project === '*';
  const project = allScopes ? null : checkProject(query.project, 'project');
  const classes = query.class === undefined ? undefined : new Set(Array.isArray(query.class) ? query.class : [query.class]);
  for (const c of classes ?? []) if (!isEpistemicClass(c)) throw badInput('class', 'must be observation, evidence, inference or hypothesis');
  const min = query.confidence_min;
  if (min !== undefined && (typeof min !== 'number' || !(min >= 0 && min <= 100))) throw badInput('confidence_min', 'must be a number from 0 to 100');
  const limit = query.limit ?? 10;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw badInput('limit', 'must be an integer from 1 to 1000');
  const at = timeOf(layer, query.at);
  await layer.index.refresh();

  const inScope = (m: Indexed) => (allScopes || m.facts.project === project) && (classes === undefined || classes.has(m.current));
  let ranked: { hash: string; score: number }[];
  if (text !== undefined) {
    const words = wordsOf(text);
    const hits = new Map<string, number>();
    for (const w of words) for (const h of layer.index.withWord(w)) hits.set(h, (hits.get(h) ?? 0) + 1);
    ranked = [];
    for (const [hash, n] of hits) if (inScope(layer.index.get(hash)!)) ranked.push({ hash, score: n / words.length });
  } else {
    ranked = [];
    for (const [hash, m] of layer.index.memories) if (inScope(m)) ranked.push({ hash, score: 1 });
  }
  // The working records, only read here (every ranked hash is indexed).
  const sal = (h: string) => (layer.index.get(h) as Indexed).salience ?? NO_SALIENCE;
  ranked.sort((a, b) => b.score - a.score || bySalience([a.hash, sal(a.hash)], [b.hash, sal(b.hash)]));

  const rows: RecallRow[] = [];
  for (const { hash, score } of ranked) {
    if (rows.length >= limit) break;
    const m = layer.index.get(hash)!;
    const confidence = confidenceAt(layer, await layer.index.cached(hash), at.instant);
    if (min !== undefined && confidence < min) continue;
    const salience = m.salience === undefined ? emptySalience() : copyOf(m.salience);
    rows.push({ hash, text: m.facts.text, class: m.current, confidence, project: m.facts.project, source: m.facts.source, score, salience });
  }
  if (query.touch !== false) {
    for (const row of rows) {
      const m = layer.index.get(row.hash) as Indexed;
      const s = touch(layer, m, row.hash, at.text);
      if (isDue(layer, m, s)) await attemptPromotion(layer, row.hash, s);
      copyInto(row.salience, s);
    }
  }
  return rows;
}

/** Replay (consolidation) of one memory: salience rises as on recall; evidence does not move. Returns a copy of its salience. */
export async function replay(layer: MemoryLayer, hash: string, at?: string): Promise<SalienceRecord> {
  checkText(hash, 'hash', 256);
  await layer.index.refresh();
  const m = layer.index.known(hash, 'hash');
  const s = touch(layer, m, hash, timeOf(layer, at).text);
  if (isDue(layer, m, s)) await attemptPromotion(layer, hash, s);
  return copyOf(s);
}

/**
 * Raise a memory's salience; returns its working record. Synchronous: the hot path. An indexed
 * memory's record lives in its slot (no lookup in a map of every memory), written through to a
 * store given in the options.
 */
function touch(layer: MemoryLayer, m: Indexed, hash: string, at: string): SalienceRecord {
  if (m.salience === undefined) m.salience = emptySalience();
  const s = m.salience;
  s.recall_count += 1;
  s.energy += layer.config.recall_energy;
  s.last_recalled_at = at;
  if (layer.salienceElsewhere) layer.salience.set(hash, s);
  return s;
}

/**
 * The auto-context: "hot" (the most salient memories, each with class and confidence) and "confirmed"
 * (warrant ACCEPTED or confidence ≥ `confirmed_confidence`), as separate labelled parts. With
 * `eviction_evidence_bias` 0 the hot part is ranked by salience alone. Each part is bounded: at most
 * `limit` rows (default `hot_k`) and `maxBytes` bytes of memory text (default `context_max_bytes`);
 * `omitted` says how many qualifying memories were left out, so a ledger of any size gives a bounded context.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the field (`project`, `at`, `limit`, `maxBytes`).
 */
export function autoContext(
  layer: MemoryLayer,
  options: { project?: string | null; at?: string; limit?: number; maxBytes?: number } = {},
): Promise<AutoContext> {
  return contextWith(layer, options, (project, at) => layer.confirmed.confirmed(layer, project, at));
}

/**
 * The auto-context with its confirmed part found by judging every memory of the scope: the reference
 * the confirmed index is tested and measured against (internal, not exported from the package).
 */
export function autoContextByScan(
  layer: MemoryLayer,
  options: { project?: string | null; at?: string; limit?: number; maxBytes?: number } = {},
): Promise<AutoContext> {
  return contextWith(layer, options, (project, at) => confirmedByScan(layer, project, at));
}

/** The confirmed memories of a scope at T, by confidence then hash, from a judgement of every memory of it. */
export async function confirmedByScan(layer: MemoryLayer, project: string | null, at: At): Promise<{ hash: string; confidence: number }[]> {
  // Confidence first; the warrant only when confidence alone does not confirm.
  const confirmed: { hash: string; confidence: number }[] = [];
  for (const [hash, m] of layer.index.memories) {
    if (m.facts.project !== project) continue;
    const keep = layer.index.isCached(hash);
    const confidence = confidenceAt(layer, await layer.index.cached(hash, keep), at.instant);
    if (confidence >= layer.config.confirmed_confidence || (await stateOf(layer, hash, at, keep)).warrant.acceptance === 'ACCEPTED') {
      confirmed.push({ hash, confidence });
    }
  }
  return confirmed.sort((a, b) => b.confidence - a.confidence || (a.hash < b.hash ? -1 : 1));
}

async function contextWith(
  layer: MemoryLayer,
  options: { project?: string | null; at?: string; limit?: number; maxBytes?: number },
  confirmedOf: (project: string | null, at: At) => Promise<readonly { hash: string; confidence: number }[]>,
): Promise<AutoContext> {
  const project = checkProject(options.project, 'project');
  const at = timeOf(layer, options.at);
  const k = options.limit ?? layer.config.hot_k;
  if (!Number.isSafeInteger(k) || k < 0 || k > 10_000) throw badInput('limit', 'must be an integer from 0 to 10000');
  const maxBytes = options.maxBytes ?? layer.config.context_max_bytes;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw badInput('maxBytes', 'must be a non-negative integer');
  await layer.index.refresh();
  const inScope = (hash: string) => layer.index.get(hash)?.facts.project === project;
  const bias = layer.config.eviction_evidence_bias;

  // Hot: ranked from salience alone (only memories with energy qualify); confidence is read for
  // every memory of the scope only when a bias asks for it.
  const candidates: { hash: string; salience: SalienceRecord; confidence: number }[] = [];
  if (bias === 0) {
    for (const [hash, salience] of layer.salience.entries()) if (salience.energy > 0 && inScope(hash)) candidates.push({ hash, salience, confidence: 0 });
  } else {
    for (const [hash, m] of layer.index.memories) {
      if (m.facts.project !== project) continue;
      const cached = await layer.index.cached(hash, layer.index.isCached(hash));
      const confidence = confidenceAt(layer, cached, at.instant);
      candidates.push({ hash, salience: layer.salience.get(hash) ?? emptySalience(), confidence });
    }
  }
  const hot = await contextPart(layer, hotRanking(candidates, bias, candidates.length), k, maxBytes, at);

  // Confirmed: the members at T (from the index: only memories whose state may have changed are
  // judged again), then the best `k` that fit are shown.
  const confirmed = await confirmedOf(project, at);
  const shownConfirmed = await contextPart(
    layer,
    confirmed.map((c) => c.hash),
    k,
    maxBytes,
    at,
  );
  return {
    evaluated_at: at.text,
    project,
    hot: { label: HOT_LABEL, ...hot },
    confirmed: { label: CONFIRMED_LABEL, ...shownConfirmed },
  };
}

/** The first rows of `ranked` within `k` rows and `maxBytes` bytes of text; the rest are counted, not read. */
async function contextPart(
  layer: MemoryLayer,
  ranked: readonly string[],
  k: number,
  maxBytes: number,
  at: At,
): Promise<{ rows: ContextRow[]; omitted: number }> {
  const rows: ContextRow[] = [];
  let bytes = 0;
  for (const hash of ranked) {
    if (rows.length >= k) break;
    const size = Buffer.byteLength(layer.index.get(hash)!.facts.text, 'utf8');
    // A memory too large for what is left is skipped; a smaller one after it may still fit.
    if (bytes + size > maxBytes) continue;
    bytes += size;
    const s = await stateOf(layer, hash, at);
    rows.push({
      hash,
      text: s.text,
      class: s.class,
      confidence: s.confidence,
      acceptance: s.warrant.acceptance,
      conflict: s.warrant.conflict,
      disputed: isDisputedMemory(s),
      salience: layer.salience.get(hash) ?? emptySalience(),
    });
  }
  return { rows, omitted: ranked.length - rows.length };
}

/** The plain context, as before the evidence layer: the most salient memories' texts, nothing else. */
export async function plainContext(layer: MemoryLayer, options: { project?: string | null; limit?: number } = {}): Promise<{ hash: string; text: string }[]> {
  const project = checkProject(options.project, 'project');
  await layer.index.refresh();
  const scoped: [string, SalienceRecord][] = [];
  for (const [hash, m] of layer.index.memories) if (m.facts.project === project) scoped.push([hash, layer.salience.get(hash) ?? emptySalience()]);
  return hotRanking(
    scoped.map(([hash, salience]) => ({ hash, salience, confidence: 0 })),
    0,
    options.limit ?? layer.config.hot_k,
  ).map((hash) => ({ hash, text: layer.index.get(hash)!.facts.text }));
}

/**
 * The hot set: memories with energy (or, with a bias, confidence) ranked by `energy + bias × confidence`,
 * ties by salience order, the first `k`. With `bias` 0 this is the salience ranking, unchanged.
 */
export function hotRanking(candidates: readonly { hash: string; salience: SalienceRecord; confidence: number }[], bias: number, k: number): string[] {
  const score = (c: { salience: SalienceRecord; confidence: number }) => c.salience.energy + (bias === 0 ? 0 : bias * c.confidence);
  return candidates
    .filter((c) => score(c) > 0)
    .sort((a, b) => score(b) - score(a) || bySalience([a.hash, a.salience], [b.hash, b.salience]))
    .slice(0, k)
    .map((c) => c.hash);
}
