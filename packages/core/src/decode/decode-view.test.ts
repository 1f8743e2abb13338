import { describe, expect, it } from 'vitest';
import { InvalidEvidenceView } from '../errors.js';
import { parseJson } from '../json/parse-json.js';
import { decodeView, decodeViewJson, namesProposition } from './decode-view.js';

const source = { source_id: 's', lineage_id: 'l', origin_type: 'tool', origin_locator: 'x', snapshot_id: 'n', content_hash: 'h', observed_at: 't' };
const assertion = { assertion_id: 'a', text: 'P holds', asserted_by: 'me', assertion_confidence: 1, source, asserted_at: '2026-01-01T00:00:00Z' };

function refusal(input: unknown): InvalidEvidenceView {
  try {
    typeof input === 'string' ? decodeViewJson(input) : decodeView(input);
  } catch (error) {
    if (error instanceof InvalidEvidenceView) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('decodeView', () => {
  it('applies every default', () => {
    const v = decodeView({ proposition_id: 'P' });
    expect(v).toMatchObject({
      assertions: [],
      evidence: [],
      lineage: [],
      conflicts: [],
      checks: [],
      omitted_sources: [],
      retrieval_scope: 'complete',
      degraded: false,
      freshness_policy_seconds: 2_592_000,
      adapter_meta: {},
      subjects: [],
    });
    expect(v.view_id).toMatch(/^v-[0-9a-f]{20}$/);
  });

  it('converts text scalars like Python str() and defaults the record proposition', () => {
    const v = decodeView({ proposition_id: 'P', assertions: [{ ...assertion, assertion_id: true, text: 1 }] });
    expect(v.assertions[0]).toMatchObject({ assertion_id: 'True', text: '1', proposition_id: 'P', assertion_confidence: 1 });
    expect(v.assertions[0]!.source.extractor_id).toBeNull();
  });

  it('keeps integer view ids exact and refuses float tokens', () => {
    expect(decodeViewJson('{"proposition_id":"P","view_id":12345678901234567890}').view_id).toBe('12345678901234567890');
    expect(refusal('{"proposition_id":"P","view_id":7.0}').rule).toBe('S3');
    expect(refusal('{"proposition_id":"P","freshness_policy_seconds":5.0}').code).toBe('WRONG_TYPE');
    expect(refusal('{"proposition_id":"P","freshness_policy_seconds":9007199254740992}').code).toBe('OUT_OF_RANGE');
  });

  it.each([
    [{ proposition_id: 42 }, 'WRONG_TYPE', '$.proposition_id'],
    [{ proposition_id: '' }, 'EMPTY_STRING', '$.proposition_id'],
    [{ proposition_id: 'P', checks: false }, 'WRONG_TYPE', '$.checks'],
    [{ proposition_id: 'P', assertions: [null] }, 'NOT_AN_OBJECT', '$.assertions[0]'],
    [{ proposition_id: 'P', assertions: [{ ...assertion, assertion_confidence: '0.9' }] }, 'WRONG_TYPE', '$.assertions[0].assertion_confidence'],
    [{ proposition_id: 'P', assertions: [{ ...assertion, text: ['a'] }] }, 'UNSUPPORTED_TEXT_VALUE', '$.assertions[0].text'],
    [{ proposition_id: 'P', assertions: [{ ...assertion, proposition_id: 'Q' }] }, 'UNBOUND_PROPOSITION', '$.assertions[0].proposition_id'],
    [{ proposition_id: 'P', assertions: [assertion, assertion] }, 'DUPLICATE_ID', '$.assertions[1]'],
    [
      { proposition_id: 'P', assertions: [assertion, { ...assertion, assertion_id: 'b', source: { ...source, lineage_id: 'other' } }] },
      'SOURCE_REF_MISMATCH',
      '$.assertions[1].source',
    ],
    [{ proposition_id: 'P', subjects: 'a' }, 'NOT_AN_ID_LIST', '$.subjects'],
    [{ proposition_id: 'P', subjects: ['a', ''] }, 'NOT_AN_ID_LIST', '$.subjects[1]'],
    [{ proposition_id: 'P', lineage: [{ from_id: 'P', to_id: 7, kind: 'derived_from' }] }, 'WRONG_TYPE', '$.lineage[0].to_id'],
    [
      { proposition_id: 'P', conflicts: [{ conflict_id: 'c', proposition_ids: ['Q'], status: 'open' }] },
      'UNBOUND_PROPOSITION',
      '$.conflicts[0].proposition_ids',
    ],
    [{ proposition_id: 'P', conflicts: [{ conflict_id: 'c', proposition_ids: ['P'], status: 'Open' }] }, 'UNKNOWN_ENUM_VALUE', '$.conflicts[0].status'],
    [{ proposition_id: 'P', degraded: 'false' }, 'WRONG_TYPE', '$.degraded'],
    [{ proposition_id: 'P', adapter_meta: [] }, 'WRONG_TYPE', '$.adapter_meta'],
    [[], 'NOT_AN_OBJECT', '$'],
  ])('refuses %j with %s at %s', (input, code, path) => {
    const error = refusal(input);
    expect(error.code).toBe(code);
    expect(error.path).toBe(path);
    expect(error.message).toContain(path);
  });

  it('never throws anything but InvalidEvidenceView on odd inputs', () => {
    for (const odd of [undefined, null, 0, 'x', true, Symbol.iterator, () => 1, new Date(), new Map()]) {
      expect(() => decodeView(odd)).toThrow(InvalidEvidenceView);
    }
  });

  it('turns a falsy note into "" and keeps adapter_meta as plain JSON', () => {
    const v = decodeView(
      parseJson(
        '{"proposition_id":"P","adapter_meta":{"score":1.0,"n":12345678901234567890},"conflicts":[{"conflict_id":"c","proposition_ids":["P"],"status":"open","note":0}]}',
      ),
    );
    expect(v.conflicts[0]!.note).toBe('');
    expect(v.adapter_meta).toEqual({ score: 1, n: Number(12345678901234567890n) });
  });
});

describe('namesProposition (docs/spec/protocol.md §4.5)', () => {
  it.each([
    ['P-x', true],
    ['P-x:', true],
    ['P-x:a:b', true],
    ['P-xy', false],
    ['p-x', false],
    ['P-x ', false],
    ['', false],
  ])('%j names P-x: %s', (x, expected) => expect(namesProposition(x, 'P-x')).toBe(expected));
});

describe('adapter_meta must be JSON', () => {
  it('refuses cycles, absurd depth and non-JSON values with a typed error', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    for (const meta of [cyclic, deep, { f: () => 1 }, { u: undefined }, { d: new Date(0) }]) {
      expect(() => decodeView({ proposition_id: 'P', adapter_meta: meta })).toThrow(InvalidEvidenceView);
    }
  });
  it('accepts a bigint freshness in range and names the value out of range', () => {
    expect(decodeView({ proposition_id: 'P', freshness_policy_seconds: 10n }).freshness_policy_seconds).toBe(10);
    expect(() => decodeView({ proposition_id: 'P', freshness_policy_seconds: -1n })).toThrow(/-1 is outside/);
  });
});

describe('decodeView on large views (hash-table checks)', () => {
  const src = (k: number) => ({ ...source, source_id: `s${k}`, origin_locator: `loc:${k}` });
  const assertions = (n: number) => Array.from({ length: n }, (_, k) => ({ ...assertion, assertion_id: `a${k}`, source: src(k) }));

  it('names the first repeated id, after every record decoded', () => {
    const a = assertions(3000);
    a[2500] = { ...a[2500]!, assertion_id: 'a17' };
    a[2700] = { ...a[2700]!, assertion_id: 'a3' };
    expect(refusal({ proposition_id: 'P', assertions: a })).toMatchObject({ code: 'DUPLICATE_ID', rule: 'I1', path: '$.assertions[2500]' });
    const lineage = [{ from_id: 'x', kind: 'derived_from' }];
    expect(refusal({ proposition_id: 'P', assertions: a, lineage })).toMatchObject({ code: 'MISSING_FIELD', path: '$.lineage[0].to_id' });
    const checks = Array.from({ length: 40 }, (_, k) => ({
      check_id: k === 39 ? 'c0' : `c${k}`,
      method: 'm',
      scope: 's',
      source: src(10_000 + k),
      observed_at: 't',
      result: 'supports',
    }));
    expect(refusal({ proposition_id: 'P', assertions: a, checks })).toMatchObject({ rule: 'I1', path: '$.assertions[2500]' });
    expect(refusal({ proposition_id: 'P', assertions: assertions(3000), checks })).toMatchObject({ rule: 'I3', path: '$.checks[39]' });
  });

  it('refuses a second, different SourceRef for a source_id at the record that uses it', () => {
    const a = assertions(3000);
    a[2999] = { ...a[2999]!, source: { ...src(1234) } };
    expect(decodeView({ proposition_id: 'P', assertions: a }).assertions[2999]!.source).not.toBe(
      decodeView({ proposition_id: 'P', assertions: a }).assertions[1234]!.source,
    );
    a[2000] = { ...a[2000]!, source: { ...src(1234), content_hash: 'other' }, asserted_at: null as unknown as string };
    expect(refusal({ proposition_id: 'P', assertions: a })).toMatchObject({ code: 'SOURCE_REF_MISMATCH', path: '$.assertions[2000].source' });
  });
});

describe('decodeView reads only own fields, however records are built', () => {
  const many = (make: (k: number) => object) => ({ proposition_id: 'P', assertions: Array.from({ length: 80 }, (_, k) => make(k)) });
  const withoutText = (k: number) => {
    const { text: _text, ...rest } = { ...assertion, assertion_id: `a${k}` };
    return rest;
  };

  it('ignores a field defined on Object.prototype', () => {
    Object.defineProperty(Object.prototype, 'text', { value: 'inherited', configurable: true, writable: true });
    try {
      expect(refusal(many(withoutText))).toMatchObject({ code: 'MISSING_FIELD', path: '$.assertions[0].text' });
    } finally {
      delete (Object.prototype as Record<string, unknown>).text;
    }
  });

  it('ignores fields defined on Object.prototype after the decoder has been optimized', () => {
    const full = many((k) => ({ ...assertion, assertion_id: `a${k}`, source: { ...source, extractor_id: null } }));
    for (let i = 0; i < 3_000; i++) decodeView(full);
    const withoutSourceId = many((k) => {
      const { source_id: _id, ...rest } = source;
      return { ...assertion, assertion_id: `a${k}`, source: rest };
    });
    const withoutExtractor = many((k) => {
      const { extractor_id: _x, ...rest } = source as typeof source & { extractor_id?: unknown };
      return { ...assertion, assertion_id: `a${k}`, source: rest };
    });
    const cases: [string, () => void][] = [
      ['text', () => expect(refusal(many(withoutText))).toMatchObject({ code: 'MISSING_FIELD', path: '$.assertions[0].text' })],
      ['source_id', () => expect(refusal(withoutSourceId)).toMatchObject({ code: 'MISSING_FIELD', path: '$.assertions[0].source.source_id' })],
      ['extractor_id', () => expect(decodeView(withoutExtractor).assertions[5]?.source.extractor_id).toBeNull()],
    ];
    for (const [name, check] of cases) {
      Object.defineProperty(Object.prototype, name, { value: 'inherited', configurable: true, writable: true });
      try {
        check();
      } finally {
        delete (Object.prototype as Record<string, unknown>)[name];
      }
      expect(decodeView(full).assertions).toHaveLength(80);
    }
  });

  it('ignores inherited fields of other prototypes and accepts null-prototype records', () => {
    const proto = { text: 'inherited' };
    expect(refusal(many((k) => Object.assign(Object.create(proto), withoutText(k))))).toMatchObject({ code: 'MISSING_FIELD', path: '$.assertions[0].text' });
    const v = decodeView(
      many((k) => Object.assign(Object.create(null), { ...assertion, assertion_id: `a${k}`, source: Object.assign(Object.create(null), source) })),
    );
    expect(v.assertions[79]).toEqual(decodeView(many((k) => ({ ...assertion, assertion_id: `a${k}` }))).assertions[79]);
  });
});

describe('decodeView names the refusal the record order meets first', () => {
  const src = (k: number) => ({ ...source, source_id: `s${k}` });
  const a = (k: number, s = src(k)) => ({ ...assertion, assertion_id: `a${k}`, source: s });
  const e = (k: number, s = src(k)) => ({ evidence_id: `e${k}`, polarity: 'supports', source: s, content: 'c', observed_at: 't' });

  it('an I5 mismatch before a later missing field, in any record kind', () => {
    const assertions = Array.from({ length: 30 }, (_, k) => a(k));
    const evidence = Array.from({ length: 30 }, (_, k) => e(k, src(100 + k)));
    evidence[4] = e(4, { ...src(7), content_hash: 'other' });
    expect(refusal({ proposition_id: 'P', assertions, evidence })).toMatchObject({ code: 'SOURCE_REF_MISMATCH', path: '$.evidence[4].source' });
    const withLater = [...evidence];
    withLater[20] = { ...e(20), content: null } as unknown as ReturnType<typeof e>;
    expect(refusal({ proposition_id: 'P', assertions, evidence: withLater })).toMatchObject({ code: 'SOURCE_REF_MISMATCH', path: '$.evidence[4].source' });
    const withEarlier = [...evidence];
    withEarlier[2] = { ...e(2), content: null } as unknown as ReturnType<typeof e>;
    expect(refusal({ proposition_id: 'P', assertions, evidence: withEarlier })).toMatchObject({ code: 'MISSING_FIELD', path: '$.evidence[2].content' });
    const sameRecord = [...evidence];
    sameRecord[4] = { ...sameRecord[4]!, content: null } as unknown as ReturnType<typeof e>;
    expect(refusal({ proposition_id: 'P', assertions, evidence: sameRecord })).toMatchObject({ code: 'SOURCE_REF_MISMATCH', path: '$.evidence[4].source' });
    const dupAndMismatch = [...assertions, a(3)];
    expect(refusal({ proposition_id: 'P', assertions: dupAndMismatch, evidence })).toMatchObject({ code: 'SOURCE_REF_MISMATCH', path: '$.evidence[4].source' });
  });
});
