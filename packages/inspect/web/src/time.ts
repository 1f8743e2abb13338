/** T on the page: whole epoch seconds on the slider, ISO strings for @ewp/core. */
import { type EvidenceView, parseInstant } from '@ewp/core';

export const DAY = 86_400;

/** `YYYY-MM-DDTHH:MM:SSZ` for whole epoch seconds. */
export function isoOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Epoch seconds of a time string as @ewp/core reads it; `undefined` when it is not an instant. */
export function secondsOf(time: string): number | undefined {
  const t = parseInstant(time);
  return typeof t === 'string' ? undefined : t.seconds;
}

/** A moment worth stopping at on the time line. */
export interface KeyInstant {
  seconds: number;
  label: string;
}

/**
 * The moments where the warrant can change: each record becoming available, and each check
 * leaving its freshness window (one second after `observed_at + freshness`).
 */
export function keyInstants(view: EvidenceView): KeyInstant[] {
  const out: KeyInstant[] = [];
  const add = (time: string, label: string) => {
    const s = secondsOf(time);
    if (s !== undefined) out.push({ seconds: s, label });
  };
  for (const a of view.assertions) add(a.asserted_at, `assertion ${a.assertion_id}`);
  for (const e of view.evidence) add(e.observed_at, `evidence ${e.evidence_id} (${e.polarity})`);
  for (const c of view.checks) {
    add(c.observed_at, `check ${c.check_id} (${c.method}, ${c.result})`);
    const s = secondsOf(c.observed_at);
    if (s !== undefined && Number.isSafeInteger(s + view.freshness_policy_seconds + 1)) {
      out.push({ seconds: s + view.freshness_policy_seconds + 1, label: `check ${c.check_id} leaves its freshness window` });
    }
  }
  // Years 1…9999 only (what a T may be).
  const bounded = out.filter((k) => k.seconds >= -62_135_596_800 && k.seconds <= 253_402_300_799);
  bounded.sort((a, b) => a.seconds - b.seconds);
  return bounded;
}

/** Slider bounds: a day before the first key instant to a month after the last one (or now). */
export function sliderRange(keys: readonly KeyInstant[], now: number): { min: number; max: number } {
  const first = keys[0]?.seconds ?? now;
  const last = keys[keys.length - 1]?.seconds ?? now;
  return { min: Math.min(first, now) - DAY, max: Math.max(last, now) + 30 * DAY };
}

/** A duration in words: "364 days", "5 hours". */
export function durationWords(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs >= 2 * DAY) return `${Math.round(abs / DAY)} days`;
  if (abs >= 7200) return `${Math.round(abs / 3600)} hours`;
  if (abs >= 120) return `${Math.round(abs / 60)} minutes`;
  return `${abs} seconds`;
}
