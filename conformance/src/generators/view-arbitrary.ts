/**
 * Valid EvidenceViews (plain JSON-safe objects) that stress reference-v2: every origin and method
 * group plus look-alikes, every result and polarity, subject case and Unicode variants, variant
 * proposition ids, conflict rows, every lineage kind, record times around T, freshness
 * boundaries, bounded-view flags, shared lineages, and empty views.
 */
import fc from 'fast-check';
import { arbitraryRecordTime, type TimeOptions } from './time-text.js';

/** A plain JSON value as produced here (no bigint, no non-finite numbers). */
export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson };

/** A generated view: a plain object `decodeView` accepts. */
export type GeneratedView = { [key: string]: PlainJson };

export interface ViewOptions extends TimeOptions {
  /** Largest number of records per array. Default 4. */
  readonly maxRecords?: number;
  /** Allow booleans and numbers in text fields (converted with Python `str()`). Default true. */
  readonly nonStringText?: boolean;
}

const TRUSTED = ['tool', 'document', 'human', 'api', 'vendor', 'sensor'];
const ENDOGENOUS = ['extract', 'turn', 'derived', 'summary', 'model_introspection'];
const ODD_ORIGINS = ['episode', 'graph', 'agent', 'inline:tool', 'Tool', '', 'TOOL', ' tool', 'document '];
const HUMAN_METHODS = ['human_attestation', 'human_review'];
const EXTERNAL_METHODS = ['tool_observation', 'external_clock', 'document_quote', 'independent_reproduction', 'vendor_documentation', 'winrm', 'external_api'];
const INDIRECT_METHODS = ['inference', 'extract', 'derived', 'model_introspection'];
const UNKNOWN_METHODS = ['Tool_Observation', 'guess', '', 'human', 'tool_observation ', 'HUMAN_REVIEW'];

/**
 * Subjects chosen so that case-insensitive matching is exercised: ASCII case, ß/SS, dotted İ,
 * final sigma, and code points Node lowercases but Python 3.12 does not (docs/spec/protocol.md §11.5).
 */
export const SUBJECT_POOL: readonly string[] = [
  'server01',
  'SERVER01',
  'Server01',
  'server02',
  'customer-42',
  'CUSTOMER-42',
  'ß',
  'SS',
  'ss',
  '\u0130',
  'i\u0307',
  'i',
  'ΟΔΟΣ',
  'οδος',
  'οδοσ',
  'ǅ',
  'ǆ',
  '\ua7cb', // Node lowercases to U+0264; Python 3.12 leaves it
  '\u0264',
  '\u1c89',
  '\u1c8a',
  '\u{10d50}',
  '\u{10d70}',
  '\u{16ea0}',
  '\u{16ebb}',
  'ΣΑ\ua7cb',
  '\ue000x',
];

const PROPOSITIONS = ['P-x', 'P', 'P-win', 'p:ünï', 'P:a', 'P\u{1F600}', 'P\ud800'];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

function textValue(nonString: boolean, strings: fc.Arbitrary<string>): fc.Arbitrary<PlainJson> {
  if (!nonString) return strings;
  return fc.oneof(
    { weight: 20, arbitrary: strings },
    { weight: 1, arbitrary: fc.constantFrom<PlainJson>(true, false, 0, -1, 42, 1.5, -0.25, 1e16, 1e-5, [], {}) },
  );
}

const idText = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[a-z][0-9]{0,2}$/) },
  { weight: 1, arbitrary: pick(['', ' ', 'é', '\u{1F600}', '\uffff', '\u{10000}', 'x"\\', 'True', '1']) },
);

function dedupe<T extends { [k: string]: PlainJson }>(records: T[], idField: string): T[] {
  const seen = new Set<string>();
  return records.map((r, i) => {
    let id = String(r[idField]);
    // Python str() of the generated non-string ids: booleans and numbers only, JS String() is close
    // enough for uniqueness because collisions are resolved by suffixing anyway.
    if (typeof r[idField] === 'boolean') id = r[idField] ? 'True' : 'False';
    while (seen.has(id)) id = `${id}#${i}`;
    seen.add(id);
    return id === r[idField] ? r : { ...r, [idField]: id };
  });
}

function withoutUndefined(o: { [k: string]: PlainJson | undefined }): { [k: string]: PlainJson } {
  const out: { [k: string]: PlainJson } = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

const optional = <T>(arb: fc.Arbitrary<T>, weightPresent = 3) =>
  fc.oneof({ weight: weightPresent, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Generates views that @ewp/core's `decodeView` accepts (docs/spec/protocol.md §3–§4). */
export function arbitraryView(options: ViewOptions = {}): fc.Arbitrary<GeneratedView> {
  const maxRecords = options.maxRecords ?? 4;
  const nonString = options.nonStringText ?? true;
  const time = arbitraryRecordTime(options);

  return fc.constantFrom(...PROPOSITIONS).chain((P) => {
    const variant = pick([P, `${P}:`, `${P}:2022`, `${P}:a:b`]);
    const recordProp = fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constant<PlainJson>(P) },
      { weight: 2, arbitrary: variant },
    );
    const origin = fc.oneof({ weight: 4, arbitrary: pick(TRUSTED) }, { weight: 3, arbitrary: pick(ENDOGENOUS) }, { weight: 2, arbitrary: pick(ODD_ORIGINS) });
    const lineageId = pick(['L1', 'L2', 'L3', 'L-obs', '']);
    const source = fc
      .record({
        lineage_id: lineageId,
        origin_type: origin,
        origin_locator: textValue(nonString, pick(['loc', 'loc:x', ''])),
        snapshot_id: textValue(nonString, pick(['snap', 'snap:1'])),
        content_hash: pick(['sha256:a', 'sha256:b']),
        observed_at: textValue(nonString, pick(['2026-09-01T00:00:00Z', 'not parsed', '', '9999-12-31T23:59:59-00:01'])),
        extractor_id: optional(fc.oneof(fc.constant<PlainJson>(null), textValue(nonString, pick(['ex', '', 'None'])))),
        parent_source_id: optional(fc.oneof(fc.constant<PlainJson>(null), pick(['s0', 'None']))),
      })
      .map(withoutUndefined);
    // A small pool of sources; a record picks one, so one source_id always has one SourceRef (I5).
    const pool = fc
      .array(source, { minLength: 1, maxLength: 4 })
      .map((xs) => xs.map((s, i) => ({ source_id: i === 0 ? 's0' : i === 1 ? 'winrm' : i === 2 ? '1' : `s\u00e9${i}`, ...s })));

    return pool.chain((sources) => {
      const src = fc.constantFrom(...sources);
      const assertion = fc
        .record({
          assertion_id: idText,
          proposition_id: recordProp,
          text: textValue(nonString, pick(['X', 'not X', ''])),
          asserted_by: textValue(nonString, pick(['agent', 'user'])),
          assertion_confidence: fc.oneof(pick([0.99, 1, 0, -7, 1e16, 5e-324]), fc.double({ noNaN: true, noDefaultInfinity: true })),
          source: src,
          asserted_at: time,
        })
        .map(withoutUndefined);
      const evidence = fc
        .record({
          evidence_id: idText,
          proposition_id: recordProp,
          polarity: pick(['supports', 'opposes']),
          source: src,
          content: textValue(nonString, pick(['c', ''])),
          observed_at: time,
        })
        .map(withoutUndefined);
      const method = fc.oneof(
        { weight: 2, arbitrary: pick(HUMAN_METHODS) },
        { weight: 4, arbitrary: pick(EXTERNAL_METHODS) },
        { weight: 2, arbitrary: pick(INDIRECT_METHODS) },
        { weight: 1, arbitrary: pick(UNKNOWN_METHODS) },
      );
      const check = fc
        .record({
          check_id: idText,
          method,
          scope: textValue(nonString, pick(['server01', '', 'customer-42'])),
          source: src,
          observed_at: time,
          result: fc.oneof(
            { weight: 4, arbitrary: fc.constant('supports') },
            { weight: 2, arbitrary: fc.constant('opposes') },
            { weight: 1, arbitrary: fc.constant('inconclusive') },
          ),
          subjects: optional(fc.array(pick(SUBJECT_POOL), { maxLength: 3 }), 4),
        })
        .map(withoutUndefined);
      const other = pick(['Q', 'P-y', `${P}x`, `x${P}`, 'Q:1']);
      const conflict = fc
        .record({
          conflict_id: idText,
          proposition_ids: fc
            .tuple(variant, fc.array(other, { maxLength: 2 }))
            .chain(([mine, others]) => fc.shuffledSubarray([mine, ...others], { minLength: others.length + 1 })),
          status: pick(['open', 'resolved']),
          note: optional(fc.constantFrom<PlainJson>('', 'why', false, 0, [], {}, true, 1.5, null)),
        })
        .map(withoutUndefined);
      const endpoint = fc.oneof(variant, other, pick(['e1', 'P-old', 'L1']));
      const edge = fc.record({
        from_id: endpoint,
        to_id: endpoint,
        kind: pick(['derived_from', 'supersedes', 'superseded_by', 'parent_source']),
      });
      const arr = <T>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: maxRecords });

      return (
        fc
          .record({
            proposition_id: fc.constant(P),
            view_id: optional(fc.constantFrom<PlainJson>('v1', '', null, 7, '  ', 'v-\u00e9'), 4),
            assertions: optional(
              arr(assertion).map((xs) => dedupe(xs, 'assertion_id')),
              6,
            ),
            evidence: optional(
              arr(evidence).map((xs) => dedupe(xs, 'evidence_id')),
              6,
            ),
            checks: optional(
              arr(check).map((xs) => dedupe(xs, 'check_id')),
              6,
            ),
            conflicts: optional(fc.array(conflict, { maxLength: 2 }).map((xs) => dedupe(xs, 'conflict_id'))),
            lineage: optional(fc.array(edge, { maxLength: 3 })),
            omitted_sources: optional(
              fc.oneof(
                { weight: 4, arbitrary: fc.constant<string[]>([]) },
                { weight: 1, arbitrary: fc.array(pick(['s9', 'x', 'x']), { minLength: 1, maxLength: 3 }) },
              ),
            ),
            retrieval_scope: optional(fc.oneof({ weight: 6, arbitrary: fc.constant('complete') }, { weight: 1, arbitrary: pick(['topk', '', 'Complete']) })),
            degraded: optional(fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })),
            freshness_policy_seconds: optional(pick([0, 1, 60, 3600, 604_800, 2_592_000, 2 ** 34 - 1, 2 ** 34, 2 ** 40, Number.MAX_SAFE_INTEGER])),
            adapter_meta: optional(
              fc.dictionary(
                pick(['score', 'retrieval_score', 'confidence', 'note', 'evaluated_at']),
                fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<PlainJson>,
                {
                  maxKeys: 3,
                },
              ),
            ),
            subjects: optional(fc.array(pick(SUBJECT_POOL), { maxLength: 3 })),
          })
          // A JSON round trip makes the output plain data: ordinary prototypes, no shared instances, no -0.
          .map((v) => JSON.parse(JSON.stringify(withoutUndefined(v))) as GeneratedView)
      );
    });
  });
}

/** The JSON text of a generated view (for the text path of both evaluators). */
export function viewToJsonText(view: GeneratedView): string {
  return JSON.stringify(view);
}
