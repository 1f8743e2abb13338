/**
 * Differential test: the independent oracle against @ewp/core on the same JSON text, over
 * generated views (EWP_FUZZ_RUNS, default 10,000) and raw-number texts. On a difference
 * fast-check shrinks to a minimal view and prints it with both outcomes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryCase, arbitraryEvaluatedAt, arbitraryJsonTextCase, viewToJsonText } from '../src/generators/index.js';
import { allPaths, evaluateView, readJsonText, writeJsonText } from '../src/oracle/index.js';
import { coreOutcome, disagreement } from './core-outcome.js';

const RUNS = Number(process.env.EWP_FUZZ_RUNS ?? 10_000);
const SEED = process.env.EWP_FUZZ_SEED === undefined ? undefined : Number(process.env.EWP_FUZZ_SEED);

function compareOnText(text: string, evaluatedAt: string): void {
  const problem = disagreement(evaluateView(text, evaluatedAt), coreOutcome(text, evaluatedAt));
  if (problem !== null) throw new Error(`oracle and core disagree at T=${JSON.stringify(evaluatedAt)}\n  view: ${text}\n  ${problem}`);
}

describe('differential: oracle vs @ewp/core', () => {
  it(`agrees on ${RUNS} generated views`, () => {
    const tally = { ok: 0, refused: 0 };
    fc.assert(
      fc.property(arbitraryCase(), ({ view, evaluatedAt }) => {
        const text = viewToJsonText(view);
        compareOnText(text, evaluatedAt);
        if (evaluateView(text, evaluatedAt).ok) tally.ok++;
        else tally.refused++;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`differential: ${RUNS} generated views agreed (${tally.ok} evaluated, ${tally.refused} refused)`);
    expect(tally.ok + tally.refused).toBeGreaterThanOrEqual(RUNS);
  }, 600_000);

  it('agrees on generated views with one value anywhere replaced by an awkward token', () => {
    const tokens = [
      'null',
      '""',
      '0',
      '-0',
      '-1',
      '5.0',
      '1e400',
      'NaN',
      '-Infinity',
      'true',
      'false',
      '[]',
      '{}',
      '[1]',
      '[""]',
      '["a", "a"]',
      '"x"',
      '"None"',
      '"supports"',
      '"opposes"',
      '"inconclusive"',
      '"open"',
      '"resolved"',
      '"superseded_by"',
      '"complete"',
      '"P-x"',
      '"P-x:"',
      '"P-x:v2"',
      '"tool"',
      '"extract"',
      '"tool_observation"',
      '"human_review"',
      '"\\ud800"',
      '"2026-09-21T21:00:00Z"',
      '"0001-01-01T00:00:00+00:01"',
      '"garbage"',
      '12345678901234567890',
      '9007199254740992',
    ];
    fc.assert(
      fc.property(
        arbitraryCase().chain((c) => {
          const root = readJsonText(viewToJsonText(c.view));
          const paths = allPaths(root);
          return fc.record({
            c: fc.constant(c),
            text:
              paths.length === 0
                ? fc.constant(viewToJsonText(c.view))
                : fc.tuple(fc.constantFrom(...paths), fc.constantFrom(...tokens)).map(([path, token]) => writeJsonText(root, { path, token })),
          });
        }),
        ({ c, text }) => compareOnText(text, c.evaluatedAt),
      ),
      { numRuns: Math.max(500, Math.floor(RUNS / 4)), seed: SEED },
    );
  }, 600_000);

  it('agrees on staleness at ages near the freshness, including above 2^34 s (docs/spec/protocol.md §5.7)', () => {
    const MIN_MS = -62_135_596_800_000; // 0001-01-01T00:00:00Z
    const MAX_MS = 253_402_300_799_000; // 9999-12-31T23:59:59Z
    const iso = (us: bigint) => {
      const ms = us >= 0n ? us / 1000n : -((-us + 999n) / 1000n); // floor, also before 1970
      const micro = String(us - ms * 1000n).padStart(3, '0');
      return new Date(Number(ms)).toISOString().replace(/Z$/, `${micro}Z`);
    };
    const source = { source_id: 's', lineage_id: 'L', origin_type: 'tool', origin_locator: 'l', snapshot_id: 'n', content_hash: 'h', observed_at: 'o' };
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_MS, max: MAX_MS }),
        fc.integer({ min: 0, max: 999 }),
        fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 34n }), fc.bigInt({ min: 2n ** 34n - 4n, max: 315_537_897_599n })),
        fc.oneof(fc.bigInt({ min: -100n, max: 100n }), fc.bigInt({ min: -2_000_000n, max: 2_000_000n })),
        (tMs, micro, F, d) => {
          // Age = F seconds + d microseconds: right at the boundary the double rounding decides.
          const t = BigInt(tMs) * 1000n + BigInt(micro);
          const checkUs = t - F * 1_000_000n - d;
          fc.pre(checkUs >= BigInt(MIN_MS) * 1000n && checkUs <= t);
          const text = `{"proposition_id": "P", "view_id": "v", "freshness_policy_seconds": ${F}, "checks": [${JSON.stringify({
            check_id: 'k',
            method: 'tool_observation',
            scope: '',
            observed_at: iso(checkUs),
            result: 'supports',
            source,
          })}], "evidence": [${JSON.stringify({ evidence_id: 'e', polarity: 'supports', source, content: '', observed_at: iso(checkUs) })}]}`;
          compareOnText(text, iso(t));
        },
      ),
      { numRuns: Math.max(500, Math.floor(RUNS / 4)), seed: SEED },
    );
  }, 600_000);

  it('agrees on raw-number JSON texts (5 vs 5.0, big integers, NaN, duplicate keys)', () => {
    fc.assert(
      fc.property(arbitraryJsonTextCase(), arbitraryEvaluatedAt(), (c, evaluatedAt) => compareOnText(c.text, evaluatedAt)),
      { numRuns: Math.max(200, Math.floor(RUNS / 5)), seed: SEED },
    );
  }, 600_000);
});
