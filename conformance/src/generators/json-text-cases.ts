/**
 * Raw JSON texts whose meaning depends on number spelling, which `JSON.stringify` cannot write
 * (docs/spec/protocol.md §3.1, §11.1): `5` vs `5.0` freshness, integers beyond 2^53 as ids or text, `NaN` /
 * `Infinity` / `1e400` confidences, `-0`, duplicate keys (last wins), lone surrogate escapes.
 */
import fc from 'fast-check';
import { arbitraryView, type GeneratedView, type ViewOptions } from './view-arbitrary.js';

/** A JSON text plus a note saying which raw-number feature it carries. */
export interface JsonTextCase {
  readonly note: string;
  readonly text: string;
}

/** Replaces the JSON text of one top-level field (the view is written with JSON.stringify). */
function setRaw(view: GeneratedView, key: string, raw: string): string {
  const rest = { ...view };
  delete rest[key];
  const body = JSON.stringify(rest);
  return body === '{}' ? `{"${key}": ${raw}}` : `{"${key}": ${raw}, ${body.slice(1)}`;
}

const FRESHNESS_TOKENS = ['5', '5.0', '604800.0', '1e3', '0', '-0', '0.0', '9007199254740991', '9007199254740992', '-1', '1E2'];
const VIEW_ID_TOKENS = ['7', '12345678901234567890', '-0', '7.0', '1e2', 'true', '-12345678901234567890123'];
const CONFIDENCE_TOKENS = ['NaN', 'Infinity', '-Infinity', '1e400', '-1e400', '1', '1.0', '-0.0', '1e16', '5e-324', '123456789012345678901234567890'];
const TEXT_TOKENS = ['12345678901234567890', '1.0', '1e16', '1e-5', '-0', '-0.0', '1e400', 'NaN', 'true', '[]', '{}'];

/**
 * JSON texts built on generated views with one raw-number feature each. All are meaningful to
 * a Python-compatible reader; many must be refused (float freshness, non-finite confidence).
 */
export function arbitraryJsonTextCase(options: ViewOptions = {}): fc.Arbitrary<JsonTextCase> {
  const view = arbitraryView(options);
  return fc.oneof(
    fc.tuple(view, fc.constantFrom(...FRESHNESS_TOKENS)).map(([v, tok]) => ({
      note: `freshness_policy_seconds ${tok}`,
      text: setRaw(v, 'freshness_policy_seconds', tok),
    })),
    fc.tuple(view, fc.constantFrom(...VIEW_ID_TOKENS)).map(([v, tok]) => ({ note: `view_id ${tok}`, text: setRaw(v, 'view_id', tok) })),
    fc.tuple(view, fc.constantFrom(...CONFIDENCE_TOKENS), fc.constantFrom(...TEXT_TOKENS)).map(([v, conf, txt]) => {
      const assertion = {
        assertion_id: 'raw',
        text: 'X',
        asserted_by: 'agent',
        asserted_at: '2026-09-01T00:00:00Z',
        source: {
          source_id: 'raw-src',
          lineage_id: 'L-raw',
          origin_type: 'tool',
          origin_locator: 'l',
          snapshot_id: 'n',
          content_hash: 'h',
          observed_at: 'o',
        },
      };
      const body = JSON.stringify(assertion).slice(0, -1);
      const raw = `${body}, "assertion_confidence": ${conf}, "asserted_by": ${txt}}`;
      const others = Array.isArray(v.assertions) ? v.assertions.map((a) => JSON.stringify(a)) : [];
      return {
        note: `assertion_confidence ${conf}, asserted_by ${txt} (duplicate key, last wins)`,
        text: setRaw(v, 'assertions', `[${[raw, ...others].join(', ')}]`),
      };
    }),
    view.map((v) => ({
      note: 'duplicate top-level key: last degraded wins',
      text: `{"degraded": "not a bool", ${JSON.stringify({ ...v, degraded: true }).slice(1)}`,
    })),
    view.map((v) => ({ note: 'lone surrogate escape in proposition id', text: setRaw(v, 'proposition_id', '"P\\udc00x"') })),
  );
}
