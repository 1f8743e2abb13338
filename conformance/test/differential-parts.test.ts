/**
 * Differential tests of the building blocks, where a shared misreading would hide best: the time
 * grammar, Python float repr, lowercasing, code point order, the JSON reader, and the derived
 * view id — each oracle part against the kernel's exported counterpart, on generated inputs.
 */
import { canonicalViewText, compareCodePoints, decodeView, deriveViewId, JsonFloat, parseInstant, parseJson, pythonFloatRepr, pythonLower } from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryView, SUBJECT_POOL } from '../src/generators/index.js';
import {
  canonicalText,
  compareCodePoints as oracleCompare,
  decodeOracleView,
  derivedViewId,
  fromPlain,
  isRefusal,
  type JValue,
  pythonFloatRepr as oracleFloatRepr,
  pythonLower as oracleLower,
  readInstant,
  readJsonText,
} from '../src/oracle/index.js';

const RUNS = Number(process.env.EWP_FUZZ_RUNS ?? 10_000);

/** Pieces that time strings are made of, including the grammar's odd corners. */
const TIME_PIECES = [
  '2026',
  '0001',
  '9999',
  '0000',
  '-',
  '09',
  '21',
  '12',
  '31',
  '02',
  '29',
  '30',
  'W',
  'W39',
  'W53',
  'W01',
  '1',
  '7',
  'T',
  't',
  ' ',
  '_',
  'é',
  '😀',
  '\ud800',
  '\u0000',
  '\u3000',
  '\u0085',
  '\ufeff',
  '21',
  '00',
  '59',
  '60',
  '24',
  ':',
  '.',
  ',',
  '123456',
  '1234567',
  '5',
  '+',
  '+05:30',
  '-08:00',
  '+00:00',
  '-00:01',
  '+23:59:59.999999',
  '+24:00',
  'Z',
  'z',
  'x',
  '0',
  '99',
];

const timeString = fc.oneof(
  fc.array(fc.constantFrom(...TIME_PIECES), { maxLength: 14 }).map((xs) => xs.join('')),
  fc
    .tuple(
      fc.constantFrom(
        '2026-09-21T21:00:00+00:00',
        '20260921T210000Z',
        '2026-W39-1T21:00',
        '0001-01-01T00:00:00+00:01',
        '9999-12-31T23:59:59.999999-00:00',
        '2024-02-29 23:59:59,5+05:30:15.5',
      ),
      fc.array(fc.tuple(fc.nat({ max: 30 }), fc.constantFrom(...TIME_PIECES, ''), fc.nat({ max: 2 })), { maxLength: 3 }),
    )
    .map(([base, edits]) => {
      let s = base;
      for (const [at, piece, cut] of edits) {
        const i = at % (s.length + 1);
        s = s.slice(0, i) + piece + s.slice(i + cut);
      }
      return s;
    }),
  fc.string({ maxLength: 30 }),
);

function coreInstant(s: string): string {
  const r = parseInstant(s);
  if (typeof r === 'string') return r;
  return `instant ${BigInt(r.seconds) * 1_000_000n + BigInt(r.micros)}`;
}

function oracleInstant(s: string): string {
  const r = readInstant(s);
  return typeof r === 'string' ? r : `instant ${r.us}`;
}

/** Core parseJson output → the oracle's value model, so the two readers can be compared. */
function fromCore(v: unknown): JValue {
  if (v instanceof JsonFloat) return { kind: 'float', value: v.value };
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) ? { kind: 'int', value: BigInt(v) } : { kind: 'float', value: v };
  if (Array.isArray(v)) return v.map(fromCore);
  if (v !== null && typeof v === 'object') {
    const entries = new Map<string, JValue>();
    for (const k of Object.keys(v)) entries.set(k, fromCore((v as Record<string, unknown>)[k]));
    return { kind: 'object', entries };
  }
  return fromPlain(v);
}

function show(v: JValue): string {
  return JSON.stringify(v, (_k, x) =>
    typeof x === 'bigint'
      ? `${x}n`
      : x instanceof Map
        ? Object.fromEntries([...x.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : typeof x === 'number' && !Number.isFinite(x)
          ? String(x)
          : Object.is(x, -0)
            ? '-0'
            : x,
  );
}

describe('building blocks: oracle vs @ewp/core', () => {
  it('time grammar agrees on generated strings', () => {
    fc.assert(
      fc.property(timeString, (s) => {
        expect(coreInstant(s), JSON.stringify(s)).toBe(oracleInstant(s));
      }),
      { numRuns: RUNS },
    );
  });

  it('time grammar agrees on every one-character edit of several templates', () => {
    const alphabet = [...'0123456789-:+TtWZz.,x _', '\u0000', '\u00e9', '\u{1F600}', '\ud800', '\u3000', '\u0085', '\ufeff', '\u0660'];
    const templates = [
      '2026-09-21T21:00:00+00:00',
      '20260921T210000.5-0530',
      '2026-W39-1T21:00:00Z',
      '2026W391 21',
      '0001-01-01T00:00:00+00:01',
      '9999-12-31T23:59:59.999999',
      '2024-02-29 21:30,25+05:30:15.123456',
    ];
    const wrong: string[] = [];
    for (const t of templates) {
      const cps = Array.from(t);
      const variants = new Set<string>();
      for (let i = 0; i <= cps.length; i++) {
        variants.add([...cps.slice(0, i), ...cps.slice(i + 1)].join(''));
        for (const ch of alphabet) {
          variants.add([...cps.slice(0, i), ch, ...cps.slice(i + 1)].join(''));
          variants.add([...cps.slice(0, i), ch, ...cps.slice(i)].join(''));
        }
      }
      for (const v of variants) if (coreInstant(v) !== oracleInstant(v)) wrong.push(`${JSON.stringify(v)}: core ${coreInstant(v)}, oracle ${oracleInstant(v)}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('Python lowercasing agrees on every code point, alone and in final-sigma contexts', () => {
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      for (const s of [ch, `A\u03a3${ch}`, `${ch}\u03a3`]) {
        if (pythonLower(s) !== oracleLower(s) && wrong.length < 10) wrong.push(`U+${cp.toString(16)} in ${JSON.stringify(s)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('Python float repr agrees on arbitrary doubles', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double(),
          fc.integer().map((n) => n * 10 ** ((n % 40) - 20)),
        ),
        (x) => {
          expect(pythonFloatRepr(x)).toBe(oracleFloatRepr(x));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('Python lowercasing agrees on arbitrary Unicode and on the subject pool', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 8 }),
          fc.array(fc.constantFrom(...SUBJECT_POOL), { maxLength: 4 }).map((xs) => xs.join('')),
        ),
        (s) => {
          expect(pythonLower(s)).toBe(oracleLower(s));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('code point order agrees (including lone surrogates and astral characters)', () => {
    const s = fc.string({ unit: fc.constantFrom('a', '\uffff', '\u{10000}', '\ud800', '\udc00', '\ue000', '\u{1F600}'), maxLength: 4 });
    fc.assert(
      fc.property(s, s, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(oracleCompare(a, b)));
      }),
      { numRuns: RUNS },
    );
  });

  it('JSON readers agree on acceptance and on values (number kinds, big integers, NaN, duplicate keys)', () => {
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"a"',
      '"\\ud800"',
      '"\\u00e9"',
      '"x\\n"',
      '1',
      '-0',
      '5.0',
      '1e400',
      '12345678901234567890',
      'NaN',
      '-Infinity',
      'Infinity',
      'true',
      'null',
      ' ',
      '\t',
      '\u00a0',
      '01',
      '1.',
      '.5',
      '-',
      '"',
      '\\',
      '1E+2',
      '\ufeff',
    ];
    const text = fc.oneof(
      fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((xs) => xs.join('')),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(text, (t) => {
        let oracle: string;
        let core: string;
        try {
          oracle = show(readJsonText(t));
        } catch {
          oracle = 'ERROR';
        }
        try {
          core = show(fromCore(parseJson(t)));
        } catch (err) {
          core = (err as { code?: string }).code === 'JSON_SYNTAX' ? 'ERROR' : `CRASH ${(err as Error).name}`;
        }
        expect(core, JSON.stringify(t)).toBe(oracle);
      }),
      { numRuns: RUNS },
    );
  });

  it('derived view id and canonical text agree on generated views', () => {
    fc.assert(
      fc.property(arbitraryView(), (view) => {
        const mine = decodeOracleView(fromPlain(view));
        if (isRefusal(mine)) throw new Error(`oracle refused a generated view: ${mine.rule} ${mine.path}`);
        const decoded = decodeView(structuredClone(view));
        expect(canonicalViewText(decoded)).toBe(canonicalText(mine));
        expect(deriveViewId(decoded)).toBe(derivedViewId(mine));
      }),
      { numRuns: Math.max(200, RUNS / 10) },
    );
  });
});
