/** T on the page: whole epoch seconds on the slider, ISO strings for @ewp/core. */
import { type EvidenceView, formatInstant, type Instant, parseInstant, REFERENCE_V2, staleFrom, type WarrantPiece, warrantWithHorizon } from '@ewp/core';

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

/** The first whole second at or after an instant (the slider's resolution). */
function ceilSeconds(i: Instant): number {
  return i.micros > 0 ? i.seconds + 1 : i.seconds;
}

/**
 * The moments where the warrant can change: each record becoming available, and each check
 * leaving its freshness window (the first whole second at which @ewp/core's `staleFrom` says it is
 * stale). For the ticks and their labels; the next and previous events come from {@link nextEvent}
 * and {@link previousEvent}, which follow the warrant's own pieces.
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
    const t = parseInstant(c.observed_at);
    const flip = typeof t === 'string' ? null : staleFrom(t, view.freshness_policy_seconds);
    if (flip !== null) out.push({ seconds: ceilSeconds(flip), label: `check ${c.check_id} leaves its freshness window` });
  }
  // Years 1…9999 only (what a T may be).
  const bounded = out.filter((k) => k.seconds >= -62_135_596_800 && k.seconds <= 253_402_300_799);
  bounded.sort((a, b) => a.seconds - b.seconds);
  return bounded;
}

/** The warrant's piece at whole second `t`, or `undefined` when the view cannot be evaluated there. */
function pieceAt(view: EvidenceView, t: string): WarrantPiece | undefined {
  try {
    return warrantWithHorizon(view, REFERENCE_V2, t);
  } catch {
    return undefined;
  }
}

/** Label of an event: the key instant at that second, if one names it. */
function labelAt(view: EvidenceView, seconds: number, keys: readonly KeyInstant[] = keyInstants(view)): string {
  return keys.find((k) => k.seconds === seconds)?.label ?? 'the warrant changes';
}

/**
 * The next whole second after `t` at which the warrant can differ from its value at `t`: the end of
 * the warrant's piece at `t` (@ewp/core `warrantWithHorizon`), rounded up to the slider's seconds.
 */
export function nextEvent(view: EvidenceView, t: number, keys?: readonly KeyInstant[]): KeyInstant | undefined {
  const until = pieceAt(view, isoOf(t))?.until;
  if (until === null || until === undefined) return undefined;
  const seconds = Math.max(t + 1, ceilSeconds(until));
  return { seconds, label: labelAt(view, seconds, keys) };
}

/**
 * The latest whole second before `t` that starts a piece of the warrant: the start of the piece at `t`
 * when it lies before `t`, else the start of the piece before it.
 */
export function previousEvent(view: EvidenceView, t: number, keys?: readonly KeyInstant[]): KeyInstant | undefined {
  let at = isoOf(t);
  // A piece shorter than a second has no whole second of its own: step back over it.
  for (let i = 0; i < 8; i++) {
    const from = pieceAt(view, at)?.from;
    if (from === null || from === undefined) return undefined;
    const seconds = ceilSeconds(from);
    if (seconds < t) return { seconds, label: labelAt(view, seconds, keys) };
    const before = from.micros > 0 ? { seconds: from.seconds, micros: from.micros - 1 } : { seconds: from.seconds - 1, micros: 999_999 };
    if (before.seconds < -62_135_596_800) return undefined;
    at = formatInstant(before);
  }
  return undefined;
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
