/**
 * Confidence 0–100: a non-normative summary of a memory's evidence weight, beside (never inside) the
 * EWP warrant. It reads the evidence counts only: recall, energy, rank and importance appear nowhere.
 *
 * `clamp(0, 100, observation_w·min(support_count, 1) + source_w·distinct_sources − refute_w·refute_count
 *  − age_penalty·whole_30_day_periods_since(last_support))`, at an explicit T.
 */
import { type Instant, parseInstant } from '@ewp/core';
import type { ConfidenceWeights } from './config.js';
import type { EvidenceCounts } from './evidence-counts.js';

const PERIOD_SECONDS = 30 * 86_400;

/** Whole 30-day periods from `since` to `at` (0 when `since` is later or unparsable). */
export function wholePeriodsSince(since: string, at: Instant): number {
  const s = parseInstant(since);
  if (typeof s === 'string') return 0;
  const micros = (at.seconds - s.seconds) * 1_000_000 + (at.micros - s.micros);
  return micros <= 0 ? 0 : Math.floor(micros / (PERIOD_SECONDS * 1_000_000));
}

/** The confidence of a memory with these counts at `at`. */
export function confidenceOf(counts: EvidenceCounts, weights: ConfidenceWeights, at: Instant): number {
  const age = counts.last_support === null ? 0 : wholePeriodsSince(counts.last_support, at);
  const raw =
    weights.observation_w * Math.min(counts.support_count, 1) +
    weights.source_w * counts.distinct_sources -
    weights.refute_w * counts.refute_count -
    weights.age_penalty * age;
  return Math.max(0, Math.min(100, Math.round(raw)));
}
