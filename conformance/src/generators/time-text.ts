/**
 * Time strings for generated views: instants around a few anchors written in many spellings the
 * reference accepts (docs/spec/protocol.md §5.5), plus unparsable and out-of-range strings.
 */
import fc from 'fast-check';

/** Anchor instants (ms since epoch) that generated T values and record times share. */
export const ANCHORS_MS: readonly number[] = [
  Date.UTC(2026, 8, 21, 21, 0, 0), // the pack's usual T
  Date.UTC(2026, 8, 21, 18, 31, 0),
  Date.UTC(2026, 8, 21, 10, 0, 0),
  Date.UTC(2026, 8, 14, 21, 0, 0),
  Date.UTC(2026, 8, 1, 0, 0, 0),
  Date.UTC(2026, 11, 1, 0, 0, 0),
  Date.UTC(2025, 8, 21, 21, 0, 0),
];

/** Deltas (µs) added to an anchor: exact, ±1 µs, ±1 s, ±freshness boundaries. */
const DELTAS_US: readonly number[] = [
  0, 1, -1, 1_000_000, -1_000_000, -60_000_000, -3_600_000_000, -86_400_000_000, -604_800_000_000, -604_800_000_001, -604_799_999_999, -2_592_000_000_000,
  -2_592_000_000_001, 3_600_000_000, 86_400_000_000,
];

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

type Style = 'Z' | '+00:00' | '-00:00' | '+05:30' | '-08:00' | 'space' | 'naive' | 'compact' | 'micro' | 'week' | 'comma' | 'padded';

const STYLES: readonly Style[] = ['Z', '+00:00', '-00:00', '+05:30', '-08:00', 'space', 'naive', 'compact', 'micro', 'week', 'comma', 'padded'];

/** ISO week date (year, week, weekday 1–7) of a UTC calendar day. */
function isoWeek(d: Date): [number, number, number] {
  const day = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
  const thursday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 4 - day));
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return [thursday.getUTCFullYear(), week, day];
}

/** Writes an instant (µs since epoch, within years 1000–9998) in one of several accepted spellings. */
export function formatInstant(us: number, style: Style): string {
  const offsetMin = style === '+05:30' ? 330 : style === '-08:00' ? -480 : 0;
  const local = Math.floor(us / 1000) + offsetMin * 60_000;
  const micros = ((us % 1000) + 1000) % 1000;
  const d = new Date(local);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const ms = d.getUTCMilliseconds() * 1000 + micros;
  const clock = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  const frac = ms === 0 ? '' : `.${pad(ms, 6)}`;
  switch (style) {
    case 'Z':
      return `${date}T${clock}${frac}Z`;
    case '+00:00':
    case '-00:00':
    case '+05:30':
    case '-08:00':
      return `${date}T${clock}${frac}${style}`;
    case 'space':
      return `${date} ${clock}${frac}+00:00`;
    case 'naive':
      return `${date}T${clock}${frac}`;
    case 'compact':
      return `${date.replaceAll('-', '')}T${clock.replaceAll(':', '')}${frac}Z`;
    case 'micro':
      return `${date}T${clock}.${pad(ms, 6)}+00:00`;
    case 'comma':
      return `${date}T${clock},${pad(ms, 6)}Z`;
    case 'week': {
      const [wy, ww, wd] = isoWeek(d);
      return `${pad(wy, 4)}-W${pad(ww, 2)}-${wd}T${clock}${frac}`;
    }
    case 'padded':
      return ` \t${date}T${clock}${frac}Z\u3000`;
  }
}

/** Strings a record time may hold that are never an instant (docs/spec/protocol.md §5.5 "not accepted"). */
export const UNPARSABLE_TIMES: readonly string[] = [
  '',
  ' ',
  'garbage',
  '2026-09-21T21:00:00z',
  '2026-09-21T24:00:00Z',
  '2026-09-21T23:59:60Z',
  '2026-02-30',
  '2026-264',
  '2026-09',
  'UTC',
  '1790024400',
  '\ufeff2026-09-21T21:00:00Z',
  '2026-09-21T21:00:00+24:00',
  '2026-09-21T21:00:00ZZ',
  '0000-01-01',
];

/** Strings that parse but whose UTC instant is outside years 1–9999 (docs/spec/protocol.md §5.4). */
export const OUT_OF_RANGE_TIMES: readonly string[] = ['0001-01-01T00:00:00+00:01', '9999-12-31T23:59:59-00:01'];

/** Odd but accepted spellings (docs/spec/protocol.md §5.5). */
export const ODD_ACCEPTED_TIMES: readonly string[] = [
  '2026-09-21',
  '20260921',
  '2026-09-21+05:00',
  '2026-09-21Z',
  '2026-09-21T21',
  '2026-09-21T21-05',
  '2026-09-21x21:00',
  '2026-09-21T21:00:00.1234569Z',
  '2026-09-21T21.5',
  '2026-W39',
  '2026W391',
  '2026-09-21T21:00:00\u0000',
  '2026-09-21T21:00X+05:00',
  '2026-09-21T21:00:00+05:30:15.5',
];

export interface TimeOptions {
  /** Weight of out-of-range strings (they fail the whole evaluation). Default 1 (of ~186 for records, ~46 for T). */
  readonly outOfRangeWeight?: number;
  /** Weight of unparsable strings. Default 20 for record times, 2 for T. */
  readonly unparsableWeight?: number;
}

/** An anchor instant ± a boundary delta, in any accepted spelling. */
export function arbitraryAnchoredInstant(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...ANCHORS_MS), fc.constantFrom(...DELTAS_US), fc.constantFrom(...STYLES))
    .map(([anchor, delta, style]) => formatInstant(anchor * 1000 + delta, style));
}

/** A record time: mostly anchored instants, sometimes odd, unparsable or out of range. */
export function arbitraryRecordTime(options: TimeOptions = {}): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 150, arbitrary: arbitraryAnchoredInstant() },
    { weight: 15, arbitrary: fc.constantFrom(...ODD_ACCEPTED_TIMES) },
    { weight: options.unparsableWeight ?? 20, arbitrary: fc.constantFrom(...UNPARSABLE_TIMES) },
    { weight: options.outOfRangeWeight ?? 1, arbitrary: fc.constantFrom(...OUT_OF_RANGE_TIMES) },
  );
}

/** An `evaluated_at` string: mostly anchored instants, sometimes odd, unparsable or out of range. */
export function arbitraryEvaluatedAt(options: TimeOptions = {}): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 40, arbitrary: arbitraryAnchoredInstant() },
    { weight: 3, arbitrary: fc.constantFrom(...ODD_ACCEPTED_TIMES) },
    { weight: options.unparsableWeight ?? 2, arbitrary: fc.constantFrom(...UNPARSABLE_TIMES) },
    { weight: options.outOfRangeWeight ?? 1, arbitrary: fc.constantFrom(...OUT_OF_RANGE_TIMES) },
  );
}
