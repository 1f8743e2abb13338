/** The time control: T on a slider with the key instants of the view (when records arrive, when checks leave their freshness window). */
import type { EvidenceView } from '@ewp/core';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { DAY, isoOf, keyInstants, nextEvent, previousEvent, secondsOf, sliderRange } from './time.js';

export function TimeControl({ view, t, setT, nowSeconds }: { view: EvidenceView; t: number; setT: (t: number) => void; nowSeconds: number }) {
  const keys = useMemo(() => keyInstants(view), [view]);
  const { min, max } = useMemo(() => sliderRange(keys, nowSeconds), [keys, nowSeconds]);
  const [typed, setTyped] = useState(isoOf(t));
  const [typedError, setTypedError] = useState<string | undefined>(undefined);
  useEffect(() => setTyped(isoOf(t)), [t]);
  const clamp = (s: number) => Math.min(max, Math.max(min, s));
  // From the warrant's own piece at T (@ewp/core warrantWithHorizon), so "next" is where the warrant can change.
  const previous = useMemo(() => previousEvent(view, t, keys), [view, t, keys]);
  const next = useMemo(() => nextEvent(view, t, keys), [view, t, keys]);
  // Arrows move a day, Page keys thirty days: the native step (a minute) is for the pointer.
  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: DAY, ArrowUp: DAY, ArrowLeft: -DAY, ArrowDown: -DAY, PageUp: 30 * DAY, PageDown: -30 * DAY };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setT(clamp(t + move));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setT(event.key === 'Home' ? min : max);
    }
  };
  const ticks = keys.length <= 200 ? keys : keys.filter((_, i) => i % Math.ceil(keys.length / 200) === 0);
  return (
    <section class="time" aria-labelledby="time-title">
      <h2 id="time-title">Evaluate at T</h2>
      <div class="time-row">
        <label for="t-slider" class="visually-hidden">
          Evaluation time T
        </label>
        <input
          id="t-slider"
          type="range"
          min={min}
          max={max}
          step={60}
          value={t}
          list="t-ticks"
          aria-valuetext={isoOf(t)}
          onInput={(e) => setT(Number((e.target as HTMLInputElement).value))}
          onKeyDown={onKey}
        />
        <datalist id="t-ticks">
          {ticks.map((k) => (
            <option key={`${k.seconds}:${k.label}`} value={k.seconds} label={k.label} />
          ))}
        </datalist>
      </div>
      <div class="time-row">
        <output for="t-slider" data-testid="t-value">
          T = {isoOf(t)}
        </output>
        <button type="button" disabled={previous === undefined} onClick={() => previous && setT(previous.seconds)} title={previous?.label}>
          ◀ Previous event
        </button>
        <button type="button" disabled={next === undefined} onClick={() => next && setT(next.seconds)} title={next?.label}>
          Next event ▶
        </button>
        <button type="button" onClick={() => setT(clamp(nowSeconds))}>
          Now
        </button>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const s = secondsOf(typed);
            if (s === undefined) setTypedError(`${JSON.stringify(typed)} is not an instant`);
            else {
              setTypedError(undefined);
              setT(s);
            }
          }}
        >
          <label for="t-text">T (ISO 8601)</label>
          <input id="t-text" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} size={22} />
          <button type="submit">Evaluate</button>
        </form>
      </div>
      <p class="muted">{next ? `Next event: ${next.label} at ${isoOf(next.seconds)}.` : 'No later event.'} ←/→ a day, PageUp/PageDown thirty days.</p>
      {typedError ? (
        <p class="error" role="alert">
          {typedError}
        </p>
      ) : null}
    </section>
  );
}
