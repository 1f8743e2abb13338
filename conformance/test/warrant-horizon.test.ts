// warrantWithHorizon against warrantNow: every piece of T a view's warrant is cut into, walked from the
// earliest T to the last piece, is probed at its edges (from, until − 1 µs, until − 1 ms, until) and at
// random instants inside, over the conformance pack, the reference vectors and generated views.
// EWP_HORIZON_CHECKS sets how many warrantNow comparisons to make (scripts/horizon-differential.sh runs
// 1,000,000); the default keeps this file well under a minute on a loaded machine.
import {
  compareInstants,
  decodeView,
  type EvidenceView,
  formatInstant,
  type Instant,
  parseJson,
  pieceContains,
  REFERENCE_V2,
  type WarrantPiece,
  type WarrantView,
  warrantInPiece,
  warrantNow,
  warrantWithHorizon,
} from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryCase } from '../src/generators/index.js';
import { evaluateVectorLines, packFiles } from './pack-files.js';

const CHECKS = Number(process.env.EWP_HORIZON_CHECKS ?? 120_000);
const FIRST: Instant = { seconds: -62_135_596_800, micros: 0 };
const LAST: Instant = { seconds: 253_402_300_799, micros: 999_999 };

/** Deterministic randomness (mulberry32), so a failure names a reproducible probe. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plus(i: Instant, micros: number): Instant {
  const total = i.micros + micros;
  const carry = Math.floor(total / 1_000_000);
  return { seconds: i.seconds + carry, micros: total - carry * 1_000_000 };
}

/** A uniform-ish instant in [a, b] (both inclusive). */
function between(a: Instant, b: Instant, random: () => number): Instant {
  const seconds = a.seconds + Math.floor(random() * (b.seconds - a.seconds + 1));
  const t = { seconds, micros: Math.floor(random() * 1_000_000) };
  if (compareInstants(t, a) < 0) return a;
  if (compareInstants(t, b) > 0) return b;
  return t;
}

/** The view's JSON with `evaluated_at` blanked: what must be byte-identical across a piece. */
function sameness(w: WarrantView): string {
  return JSON.stringify({ ...w, evaluated_at: '' });
}

interface Tally {
  checks: number;
  pieces: number;
  disagreements: string[];
}

/** warrantNow at `t` against the piece's warrant there (full equality, `evaluated_at` included). */
function probe(view: EvidenceView, piece: WarrantPiece, expected: string, t: Instant, tally: Tally): void {
  const at = formatInstant(t);
  const direct = warrantNow(view, REFERENCE_V2, at);
  const fromPiece = warrantInPiece(piece, at);
  tally.checks += 1;
  if (fromPiece === undefined || sameness(direct) !== expected || fromPiece.evaluated_at !== at || sameness(fromPiece) !== expected) {
    tally.disagreements.push(`${view.proposition_id}/${view.view_id} at ${at}`);
  }
}

/**
 * Walk every piece of `view` from the earliest T on, probing each; stops once `budget` checks are spent.
 * At `until` the next piece must start exactly there and warrantNow must agree with it.
 */
function walk(view: EvidenceView, random: () => number, budget: number, tally: Tally): void {
  const stop = tally.checks + budget;
  let start = FIRST;
  for (;;) {
    const piece = warrantWithHorizon(view, REFERENCE_V2, formatInstant(start));
    tally.pieces += 1;
    const expected = sameness(piece.warrant);
    const from = piece.from ?? FIRST;
    if (compareInstants(from, start) !== 0) tally.disagreements.push(`${view.view_id}: piece starts at ${formatInstant(from)}, not ${formatInstant(start)}`);
    const last = piece.until === null ? LAST : plus(piece.until, -1);
    probe(view, piece, expected, from, tally);
    probe(view, piece, expected, last, tally);
    if (compareInstants(plus(last, -999), from) >= 0) probe(view, piece, expected, plus(last, -999), tally);
    for (let k = 0; k < 3; k++) probe(view, piece, expected, between(from, last, random), tally);
    if (piece.until === null) return;
    if (pieceContains(piece, piece.until)) tally.disagreements.push(`${view.view_id}: until inside its own piece`);
    // `until` itself: warrantNow there equals the next piece's warrant, checked as the next piece's `from`.
    start = piece.until;
    if (tally.checks >= stop) return;
  }
}

interface Source {
  name: string;
  views: EvidenceView[];
}

function packViews(): EvidenceView[] {
  const out: EvidenceView[] = [];
  for (const f of packFiles('fixtures')) {
    try {
      out.push(decodeView(parseJson(f.text)));
    } catch {
      // A fixture the kernel refuses has no warrant to cut into pieces.
    }
  }
  return out;
}

/** Vector views that evaluate (some lines are refusals by design: out-of-range record times, bad T). */
function vectorViews(): EvidenceView[] {
  const out: EvidenceView[] = [];
  for (const text of evaluateVectorLines()) {
    const line = parseJson(text) as { view: unknown };
    try {
      const view = decodeView(line.view);
      warrantNow(view, REFERENCE_V2, '2026-01-01T00:00:00Z');
      out.push(view);
    } catch {
      // Refused at decode or for every T (an out-of-range record time fails the whole evaluation).
    }
  }
  return out;
}

function generatedViews(count: number): EvidenceView[] {
  const out: EvidenceView[] = [];
  for (const c of fc.sample(arbitraryCase(), { numRuns: count, seed: 36 })) {
    try {
      const view = decodeView(c.view);
      warrantNow(view, REFERENCE_V2, c.evaluatedAt);
      out.push(view);
    } catch {
      // As above.
    }
  }
  return out;
}

describe('warrantWithHorizon against warrantNow', () => {
  it(`agrees at ${CHECKS} instants inside and at the edges of every piece`, () => {
    const sources: Source[] = [
      { name: 'pack', views: packViews() },
      { name: 'vectors', views: vectorViews() },
      { name: 'generated', views: generatedViews(Math.max(500, Math.ceil(CHECKS / 60))) },
    ];
    for (const s of sources) expect(s.views.length, s.name).toBeGreaterThan(40);
    const tally: Tally = { checks: 0, pieces: 0, disagreements: [] };
    const random = rng(36);
    // Every view of every source walked once, then more walks (new random instants) until the budget is spent.
    const all = sources.flatMap((s) => s.views);
    const perView = Math.max(12, Math.ceil(CHECKS / all.length));
    for (let round = 0; tally.checks < CHECKS; round++) {
      for (const view of all) {
        if (tally.checks >= CHECKS && round > 0) break;
        walk(view, random, perView, tally);
      }
    }
    expect(tally.disagreements.slice(0, 5)).toEqual([]);
    expect(tally.checks).toBeGreaterThanOrEqual(CHECKS);
    // Printed for the record (scripts/horizon-differential.sh).
    console.log(`warrant horizon: ${tally.checks} checks over ${tally.pieces} pieces of ${all.length} views, ${tally.disagreements.length} disagreements`);
  });

  it('cuts at a record becoming available and at the conferring check turning stale', () => {
    const source = (id: string, origin: string) => ({
      source_id: id,
      origin_type: origin,
      lineage_id: `L-${id}`,
      content_hash: `sha256:${id}`,
      extractor_id: null,
      observed_at: '2026-01-01T00:00:00Z',
      origin_locator: `loc:${id}`,
      parent_source_id: null,
      snapshot_id: `snap:${id}`,
    });
    const view = decodeView({
      proposition_id: 'P',
      view_id: 'v',
      subjects: [],
      freshness_policy_seconds: 10,
      assertions: [
        {
          assertion_id: 'a',
          proposition_id: 'P',
          text: 'x',
          asserted_by: 'agent',
          assertion_confidence: 0.9,
          asserted_at: '2026-01-01T00:00:00Z',
          source: source('s', 'document'),
        },
      ],
      evidence: [],
      checks: [
        {
          check_id: 'c',
          method: 'tool_observation',
          result: 'supports',
          scope: 'x',
          observed_at: '2026-01-01T00:00:05.5Z',
          subjects: [],
          source: source('t', 'tool'),
        },
      ],
      conflicts: [],
      lineage: [],
      omitted_sources: [],
      degraded: false,
      retrieval_scope: 'complete',
      adapter_meta: {},
    });
    const before = warrantWithHorizon(view, REFERENCE_V2, '2025-06-01T00:00:00Z');
    expect(before.from).toBeNull();
    expect(formatInstant(before.until as Instant)).toBe('2026-01-01T00:00:00.000000Z');
    const accepted = warrantWithHorizon(view, REFERENCE_V2, '2026-01-01T00:00:06Z');
    expect(accepted.warrant.warrant.acceptance).toBe('ACCEPTED');
    expect(formatInstant(accepted.from as Instant)).toBe('2026-01-01T00:00:05.500000Z');
    // Stale once the age exceeds 10 s: the first microsecond past 00:00:15.5.
    expect(formatInstant(accepted.until as Instant)).toBe('2026-01-01T00:00:15.500001Z');
    const stale = warrantWithHorizon(view, REFERENCE_V2, '2030-01-01T00:00:00Z');
    expect(stale.warrant.warrant.currency).toBe('STALE');
    expect(stale.until).toBeNull();
    expect(formatInstant(stale.from as Instant)).toBe('2026-01-01T00:00:15.500001Z');
  });
});
