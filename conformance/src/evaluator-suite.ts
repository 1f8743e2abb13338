import { isDeepStrictEqual } from 'node:util';
import { type ExpectedAxes, loadFixtures, loadInvalidViews, type PackFixture } from './pack/index.js';

/** An EWP evaluator as the suite sees it: JSON text in, normalized WarrantView out. */
export interface EvaluatorUnderTest {
  name: string;
  /**
   * Decode the view (JSON text, Python number semantics) and evaluate it at T under
   * `reference-v2`. Return the normalized WarrantView (docs/spec/protocol.md §7.2) or throw a typed refusal
   * (an error with a string `code`).
   */
  evaluate(viewText: string, evaluatedAt: unknown): Record<string, unknown>;
}

export interface CaseFailure {
  name: string;
  detail: string;
}

/** Counts per family of checks, with the failures spelled out. */
export interface EvaluatorReport {
  evaluator: string;
  axes: { passed: number; total: number; failures: CaseFailure[] };
  goldens: { passed: number; total: number; failures: CaseFailure[] };
  invalid: { passed: number; total: number; failures: CaseFailure[] };
}

const AXES: (keyof ExpectedAxes)[] = ['acceptance', 'conflict', 'verification', 'currency', 'sufficiency'];

/** Check one fixture's five axes and identity fields; `undefined` when it conforms. */
export function checkFixtureAxes(fixture: PackFixture, warrant: Record<string, unknown>): string | undefined {
  const w = warrant.warrant as Record<string, unknown> | undefined;
  const diffs: string[] = [];
  for (const axis of AXES) {
    if (w?.[axis] !== fixture.expected[axis]) diffs.push(`${axis}: expected ${fixture.expected[axis]}, got ${String(w?.[axis])}`);
  }
  if (warrant.protocol_version !== fixture.expected.protocol_version) diffs.push(`protocol_version: ${String(warrant.protocol_version)}`);
  if (warrant.policy_version !== fixture.expected.policy_version) diffs.push(`policy_version: ${String(warrant.policy_version)}`);
  if (warrant.evaluated_at !== fixture.expected.evaluated_at) diffs.push(`evaluated_at: ${String(warrant.evaluated_at)}`);
  return diffs.length ? diffs.join('; ') : undefined;
}

function firstDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (isDeepStrictEqual(expected, actual)) return undefined;
  if (typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of keys) {
      const d = firstDifference((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

function attempt(evaluator: EvaluatorUnderTest, text: string, at: unknown): { warrant?: Record<string, unknown>; error?: unknown } {
  try {
    return { warrant: evaluator.evaluate(text, at) };
  } catch (error) {
    return { error };
  }
}

/**
 * Run the whole pack against an evaluator without a test runner: 52 fixtures' axes,
 * 26 goldens exactly, 35 refusals with a code.
 */
export function checkEvaluator(evaluator: EvaluatorUnderTest): EvaluatorReport {
  const report: EvaluatorReport = {
    evaluator: evaluator.name,
    axes: { passed: 0, total: 0, failures: [] },
    goldens: { passed: 0, total: 0, failures: [] },
    invalid: { passed: 0, total: 0, failures: [] },
  };
  for (const fixture of loadFixtures()) {
    const { warrant, error } = attempt(evaluator, fixture.text, fixture.evaluatedAt);
    report.axes.total++;
    const axesProblem = warrant ? checkFixtureAxes(fixture, warrant) : `refused: ${String(error)}`;
    if (axesProblem) report.axes.failures.push({ name: fixture.name, detail: axesProblem });
    else report.axes.passed++;
    if (fixture.golden) {
      report.goldens.total++;
      const goldenProblem = warrant ? firstDifference(fixture.golden, warrant) : `refused: ${String(error)}`;
      if (goldenProblem) report.goldens.failures.push({ name: fixture.name, detail: goldenProblem });
      else report.goldens.passed++;
    }
  }
  for (const invalid of loadInvalidViews()) {
    report.invalid.total++;
    const { warrant, error } = attempt(evaluator, invalid.text, invalid.evaluatedAt);
    const code = (error as { code?: unknown } | undefined)?.code;
    if (warrant) report.invalid.failures.push({ name: invalid.name, detail: 'evaluated instead of refused' });
    else if (typeof code !== 'string' || code === '') report.invalid.failures.push({ name: invalid.name, detail: `refused without a code: ${String(error)}` });
    else report.invalid.passed++;
  }
  return report;
}

/**
 * The pack as a vitest suite, one test per case, so one failure never hides another.
 * Call it at the top level of a `*.standard.test.ts` file.
 */
export async function runEvaluatorConformance(evaluator: EvaluatorUnderTest): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`${evaluator.name}: EWP-0.2.0 conformance pack`, () => {
    describe('52 fixtures: expected axes', () => {
      for (const fixture of loadFixtures()) {
        it(`${fixture.family}/${fixture.name}`, () => {
          const warrant = evaluator.evaluate(fixture.text, fixture.evaluatedAt);
          expect(checkFixtureAxes(fixture, warrant)).toBeUndefined();
        });
      }
    });
    describe('26 goldens: the normalized WarrantView exactly', () => {
      for (const fixture of loadFixtures().filter((f) => f.golden)) {
        it(fixture.name, () => {
          expect(evaluator.evaluate(fixture.text, fixture.evaluatedAt)).toStrictEqual(fixture.golden);
        });
      }
    });
    describe('35 invalid views: refused with a code', () => {
      for (const invalid of loadInvalidViews()) {
        it(invalid.name, () => {
          let caught: unknown;
          try {
            evaluator.evaluate(invalid.text, invalid.evaluatedAt);
          } catch (error) {
            caught = error;
          }
          expect(caught, 'must be refused').toBeDefined();
          expect(typeof (caught as { code?: unknown }).code).toBe('string');
        });
      }
    });
  });
}
