/**
 * fast-check generators for EWP-0.2.0 / reference-v2: valid EvidenceViews that stress the spec,
 * `evaluated_at` strings, paired cases aligned on freshness boundaries, and raw JSON texts whose
 * meaning depends on number spelling.
 * @packageDocumentation
 */
import fc from 'fast-check';
import { arbitraryEvaluatedAt, type TimeOptions } from './time-text.js';
import { arbitraryView, type GeneratedView, type ViewOptions } from './view-arbitrary.js';

export { arbitraryJsonTextCase, type JsonTextCase } from './json-text-cases.js';
export {
  ANCHORS_MS,
  arbitraryAnchoredInstant,
  arbitraryEvaluatedAt,
  arbitraryRecordTime,
  formatInstant,
  ODD_ACCEPTED_TIMES,
  OUT_OF_RANGE_TIMES,
  type TimeOptions,
  UNPARSABLE_TIMES,
} from './time-text.js';
export { arbitraryView, type GeneratedView, type PlainJson, SUBJECT_POOL, type ViewOptions, viewToJsonText } from './view-arbitrary.js';

/** A view and the T to evaluate it at. */
export interface GeneratedCase {
  readonly view: GeneratedView;
  readonly evaluatedAt: string;
}

/** A view with an `evaluated_at` drawn from the same anchors as its record times. */
export function arbitraryCase(options: ViewOptions & TimeOptions = {}): fc.Arbitrary<GeneratedCase> {
  return fc.record({ view: arbitraryView(options), evaluatedAt: arbitraryEvaluatedAt(options) });
}
