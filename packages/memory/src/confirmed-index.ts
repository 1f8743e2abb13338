/**
 * The index behind the auto-context's "confirmed" part: for each memory of a scope already
 * read, whether it is confirmed ({@link isConfirmed}'s rule: warrant ACCEPTED, or confidence at or above
 * `confirmed_confidence`) and its confidence, with the span of T over which both hold. Membership at T
 * is a pure function of the memory's view, the other memories' classes and T, and changes with T only
 * at instants the view determines (a record becoming available, a whole 30-day period of age, an edge of
 * the warrant's piece), so an entry is judged again only when its view may have changed (an event names
 * the memory, a reclass, a commit with no entry) or T leaves its span: the cost of a call follows what
 * changed and the size of the confirmed set, not the size of the scope.
 */
import { compareInstants, type EvidenceView, type Instant, parseInstant } from '@ewp/core';
import { confidenceOf } from './confidence.js';
import type { EvidenceCounts } from './evidence-counts.js';
import { countsOf, warrantPieceOf } from './memory-counts.js';
import type { At, MemoryLayer } from './memory-layer.js';

/** A memory's place in the confirmed part over the span `[lo, hi)` of T (null: unbounded). */
interface Entry {
  project: string | null;
  member: boolean;
  confidence: number;
  lo: Instant | null;
  hi: Instant | null;
  /** Which judgement wrote it: an edge in a heap naming an older one is dropped. */
  stamp: number;
}

/** An edge of an entry's span, in a heap. */
interface Edge {
  at: Instant;
  hash: string;
  stamp: number;
}

const PERIOD_SECONDS = 30 * 86_400;

/** A binary heap of edges, first by `before`. */
class EdgeHeap {
  readonly #items: Edge[] = [];
  readonly #before: (a: Instant, b: Instant) => boolean;
  constructor(before: (a: Instant, b: Instant) => boolean) {
    this.#before = before;
  }
  get top(): Edge | undefined {
    return this.#items[0];
  }
  push(e: Edge): void {
    const a = this.#items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#before(a[i]!.at, a[p]!.at)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): Edge | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.#before(a[l]!.at, a[m]!.at)) m = l;
        if (r < a.length && this.#before(a[r]!.at, a[m]!.at)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

const earlier = (a: Instant, b: Instant) => compareInstants(a, b) < 0;
const later = (a: Instant, b: Instant) => compareInstants(a, b) > 0;
const maxOf = (a: Instant | null, b: Instant | null) => (a === null ? b : b === null ? a : later(b, a) ? b : a);
const minOf = (a: Instant | null, b: Instant | null) => (a === null ? b : b === null ? a : earlier(b, a) ? b : a);

/**
 * The span of T around `at` over which a view's confidence stays what it is at `at`: between the
 * record times on either side (the counts change only when a record becomes available) and within the
 * whole 30-day period of age since the last support (`confidenceOf`'s age term).
 */
function confidenceSpan(view: EvidenceView, counts: EvidenceCounts, at: Instant): { lo: Instant | null; hi: Instant | null } {
  let lo: Instant | null = null;
  let hi: Instant | null = null;
  const consider = (time: string) => {
    const t = parseInstant(time);
    if (typeof t === 'string') return;
    if (compareInstants(t, at) <= 0) lo = maxOf(lo, t);
    else hi = minOf(hi, t);
  };
  for (const a of view.assertions) consider(a.asserted_at);
  for (const e of view.evidence) consider(e.observed_at);
  const since = counts.last_support === null ? undefined : parseInstant(counts.last_support);
  if (since !== undefined && typeof since !== 'string') {
    const micros = (at.seconds - since.seconds) * 1_000_000 + (at.micros - since.micros);
    const periods = micros <= 0 ? 0 : Math.floor(micros / (PERIOD_SECONDS * 1_000_000));
    const shift = (n: number): Instant => ({ seconds: since.seconds + n * PERIOD_SECONDS, micros: since.micros });
    if (periods > 0) lo = maxOf(lo, shift(periods));
    hi = minOf(hi, shift(periods + 1));
  }
  return { lo, hi };
}

/** The confirmed part's index over one memory layer (internal: `autoContext` reads it). */
export class ConfirmedIndex {
  #entries = new Map<string, Entry>();
  /** Per scope read so far: its members' confidence, and their order once asked for. */
  #members = new Map<string | null, { confidence: Map<string, number>; sorted: { hash: string; confidence: number }[] | undefined }>();
  #stale = new Set<string>();
  #ends = new EdgeHeap(earlier);
  #starts = new EdgeHeap(later);
  #stamp = 0;
  /** Moves when everything is dropped: a judgement begun before is not kept. */
  #era = 0;
  #queue: Promise<unknown> = Promise.resolve();

  /** The memory `hash` may have changed (its view, or it was just stored): judged again on next read. */
  invalidate(hash: string): void {
    if (this.#entries.has(hash) || this.#members.size > 0) this.#stale.add(hash);
  }

  /** Anything may have changed (a reclass, a commit with no entry): every scope is read afresh. */
  invalidateAll(): void {
    this.#entries = new Map();
    this.#members = new Map();
    this.#stale = new Set();
    this.#ends = new EdgeHeap(earlier);
    this.#starts = new EdgeHeap(later);
    this.#era += 1;
  }

  /**
   * The confirmed memories of `project` at T with their confidence, by confidence (highest first) then
   * hash: the same list a judgement of every memory of the scope gives. The caller has refreshed the index.
   */
  confirmed(layer: MemoryLayer, project: string | null, at: At): Promise<readonly { hash: string; confidence: number }[]> {
    // One read at a time: a judgement awaits the store, and two interleaved would race on the heaps.
    const run = this.#queue.then(() => this.#confirmed(layer, project, at));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #confirmed(layer: MemoryLayer, project: string | null, at: At): Promise<readonly { hash: string; confidence: number }[]> {
    if (!this.#members.has(project)) {
      this.#members.set(project, { confidence: new Map(), sorted: undefined });
      for (const [hash, m] of layer.index.memories) if (m.facts.project === project) await this.#judge(layer, hash, at);
    }
    const stale = [...this.#stale];
    this.#stale.clear();
    for (const hash of stale) await this.#judge(layer, hash, at);
    for (let e = this.#ends.top; e !== undefined && compareInstants(e.at, at.instant) <= 0; e = this.#ends.top) {
      this.#ends.pop();
      if (this.#entries.get(e.hash)?.stamp === e.stamp) await this.#judge(layer, e.hash, at);
    }
    for (let e = this.#starts.top; e !== undefined && compareInstants(e.at, at.instant) > 0; e = this.#starts.top) {
      this.#starts.pop();
      if (this.#entries.get(e.hash)?.stamp === e.stamp) await this.#judge(layer, e.hash, at);
    }
    const scope = this.#members.get(project)!;
    scope.sorted ??= [...scope.confidence]
      .map(([hash, confidence]) => ({ hash, confidence }))
      .sort((a, b) => b.confidence - a.confidence || (a.hash < b.hash ? -1 : 1));
    return scope.sorted;
  }

  /** Judge memory `hash` at T (as {@link isConfirmed} does) and keep the span over which the judgement holds. */
  async #judge(layer: MemoryLayer, hash: string, at: At): Promise<void> {
    const era = this.#era;
    const m = layer.index.get(hash);
    const old = this.#entries.get(hash);
    // A memory of a scope never read is judged when that scope is first read.
    if (m === undefined || !this.#members.has(m.facts.project)) {
      if (old !== undefined) this.#set(hash, old.project, undefined);
      return;
    }
    const keep = layer.index.isCached(hash);
    const cached = await layer.index.cached(hash, keep);
    if (era !== this.#era) return;
    const counts = countsOf(layer, cached, at.instant);
    const confidence = confidenceOf(counts, layer.config.confidence, at.instant);
    let { lo, hi } = confidenceSpan(cached.view, counts, at.instant);
    let member = confidence >= layer.config.confirmed_confidence;
    if (!member) {
      const piece = warrantPieceOf(cached, at, keep);
      member = piece.warrant.warrant.acceptance === 'ACCEPTED';
      lo = maxOf(lo, piece.from);
      hi = minOf(hi, piece.until);
    }
    const stamp = ++this.#stamp;
    this.#set(hash, m.facts.project, { project: m.facts.project, member, confidence, lo, hi, stamp });
    if (hi !== null) this.#ends.push({ at: hi, hash, stamp });
    if (lo !== null) this.#starts.push({ at: lo, hash, stamp });
  }

  #set(hash: string, project: string | null, entry: Entry | undefined): void {
    const old = this.#entries.get(hash);
    if (entry === undefined) this.#entries.delete(hash);
    else this.#entries.set(hash, entry);
    const was = old?.member === true ? old.confidence : undefined;
    const now = entry?.member === true ? entry.confidence : undefined;
    if (was === now && old?.project === entry?.project) return;
    if (old !== undefined) {
      const scope = this.#members.get(old.project);
      if (scope?.confidence.delete(hash)) scope.sorted = undefined;
    }
    if (now !== undefined) {
      const scope = this.#members.get(project)!;
      scope.confidence.set(hash, now);
      scope.sorted = undefined;
    }
  }
}
