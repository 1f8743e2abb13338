import { parseInstant, type Instant } from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confidenceOf } from './confidence.js';
import { DEFAULT_MEMORY_CONFIG, resolveMemoryConfig } from './config.js';
import type { EvidenceCounts } from './evidence-counts.js';
import { MemoryError } from './errors.js';

const T = parseInstant('2026-12-01T00:00:00Z') as Instant;
const counts = (c: Partial<EvidenceCounts>): EvidenceCounts => ({
  support_count: 0,
  refute_count: 0,
  distinct_sources: 0,
  echo_count: 0,
  self_support_count: 0,
  first_seen: null,
  last_support: null,
  last_refute: null,
  ...c,
});
const W = DEFAULT_MEMORY_CONFIG.confidence;

describe('confidence', () => {
  it('follows the formula with the plan weights', () => {
    expect(confidenceOf(counts({}), W, T)).toBe(0);
    expect(confidenceOf(counts({ support_count: 1, distinct_sources: 1, last_support: '2026-11-30T00:00:00Z' }), W, T)).toBe(48);
    expect(confidenceOf(counts({ support_count: 3, distinct_sources: 2, last_support: '2026-11-30T00:00:00Z' }), W, T)).toBe(66);
    expect(confidenceOf(counts({ support_count: 1, distinct_sources: 1, refute_count: 1, last_support: '2026-11-30T00:00:00Z' }), W, T)).toBe(23);
    // 61 days: two whole 30-day periods.
    expect(confidenceOf(counts({ support_count: 1, distinct_sources: 1, last_support: '2026-10-01T00:00:00Z' }), W, T)).toBe(38);
    expect(confidenceOf(counts({ support_count: 9, distinct_sources: 9, last_support: '2026-11-30T00:00:00Z' }), W, T)).toBe(100);
  });

  const weights = fc.record({
    observation_w: fc.integer({ min: 0, max: 100 }),
    source_w: fc.integer({ min: 0, max: 100 }),
    refute_w: fc.integer({ min: 0, max: 100 }),
    age_penalty: fc.integer({ min: 0, max: 100 }),
  });
  const state = fc.record({
    s: fc.integer({ min: 0, max: 20 }),
    d: fc.integer({ min: 0, max: 20 }),
    r: fc.integer({ min: 0, max: 20 }),
    days: fc.integer({ min: 0, max: 2000 }),
  });
  const at = (days: number) => new Date(Date.parse('2026-12-01T00:00:00Z') - days * 86_400_000).toISOString();
  const c = (x: { s: number; d: number; r: number; days: number }) =>
    counts({ support_count: x.s, distinct_sources: Math.min(x.d, x.s), refute_count: x.r, last_support: x.s > 0 ? at(x.days) : null });

  it('whatever the weights: non-decreasing in independent supports, non-increasing in refutations and in age, within 0..100', () => {
    fc.assert(
      fc.property(weights, state, (w, x) => {
        const base = confidenceOf(c(x), w, T);
        expect(base).toBeGreaterThanOrEqual(0);
        expect(base).toBeLessThanOrEqual(100);
        expect(confidenceOf(c({ ...x, s: x.s + 1, d: x.d + 1, days: x.s === 0 ? 0 : x.days }), w, T)).toBeGreaterThanOrEqual(base);
        expect(confidenceOf(c({ ...x, r: x.r + 1 }), w, T)).toBeLessThanOrEqual(base);
        expect(confidenceOf(c({ ...x, days: x.days + 30 }), w, T)).toBeLessThanOrEqual(base);
      }),
    );
  });
});

describe('configuration', () => {
  it('has the plan names and defaults', () => {
    expect(resolveMemoryConfig()).toEqual({
      gate_promotion: true,
      min_independent_sources: 1,
      sim_threshold: 0.6,
      measure: 'word-vectors',
      search_k: 8,
      confidence: { observation_w: 30, source_w: 18, refute_w: 25, age_penalty: 5 },
      eviction_evidence_bias: 0,
      recall_energy: 1,
      promotion_energy: 5,
      confirmed_confidence: 60,
      hot_k: 8,
      context_max_bytes: 16_384,
      checkout_max_rows: 200,
      checkout_max_bytes: 65_536,
    });
    expect(resolveMemoryConfig({ gate_promotion: 0 as unknown as boolean, confidence: { source_w: 20 } })).toMatchObject({
      gate_promotion: false,
      confidence: { observation_w: 30, source_w: 20 },
    });
  });

  it.each([
    [{ sim_threshold: 1.5 }, 'config.sim_threshold'],
    [{ search_k: 0 }, 'config.search_k'],
    [{ search_k: 2.5 }, 'config.search_k'],
    [{ confidence: { refute_w: -1 } }, 'config.confidence.refute_w'],
    [{ gate_promotion: 'yes' }, 'config.gate_promotion'],
    [{ eviction_evidence_bias: Number.NaN }, 'config.eviction_evidence_bias'],
    [{ measure: 'levenshtein' }, 'config.measure'],
  ])('refuses %j naming the field', (input, path) => {
    try {
      resolveMemoryConfig(input as never);
      expect.unreachable();
    } catch (e) {
      expect(MemoryError.isInstance(e) && e.code === 'EWP_REFUSE_MEMORY_INPUT' && e.path).toBe(path);
    }
  });
});
