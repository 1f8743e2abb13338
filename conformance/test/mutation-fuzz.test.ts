/**
 * Mutation fuzz: every key and list index at every depth of every pack fixture (its
 * `evaluated_at` included), replaced by each of 16 awkward JSON tokens, and deleted. Each mutated view must be
 * refused by both evaluators with a typed error of the same harness class, or evaluated to the
 * same normalized WarrantView. A core error that is not an EwpError is a crash.
 *
 * Default: a deterministic sample (arrays longer than 2 are mutated at their first and last index;
 * the other elements of those arrays are structurally the same records). EWP_FUZZ_FULL=1 runs
 * every path of the 52 fixtures and of the 35 invalid views.
 */
import { parseJson } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { allPaths, DELETE, evaluateHarnessLine, type JPath, type JValue, readJsonText, writeJsonText } from '../src/oracle/index.js';
import { coreOutcome, disagreement } from './core-outcome.js';
import { packFiles, SHARED_AVAILABLE } from './pack-files.js';

const FULL = process.env.EWP_FUZZ_FULL === '1';

/** The 16 replacement tokens, written as raw JSON text, plus deletion of the key or element. */
const TOKENS: Array<string | typeof DELETE> = [
  'null',
  '""',
  '0',
  '-1',
  'false',
  'true',
  '[]',
  '{}',
  '"x"',
  '"supports"',
  '1.5',
  '1e400',
  'NaN',
  '["a"]',
  '[""]',
  '[1]',
  DELETE,
];

function sampled(root: JValue, paths: JPath[]): JPath[] {
  if (FULL) return paths;
  const lengthAt = (prefix: JPath): number => {
    let v: JValue | undefined = root;
    for (const step of prefix) {
      if (Array.isArray(v)) v = v[step as number];
      else if (v !== null && typeof v === 'object' && v.kind === 'object') v = v.entries.get(step as string);
    }
    return Array.isArray(v) ? v.length : 0;
  };
  return paths.filter((p) =>
    p.every((step, i) => {
      if (typeof step !== 'number') return true;
      const n = lengthAt(p.slice(0, i));
      return n <= 2 || step === 0 || step === n - 1;
    }),
  );
}

interface Row {
  views: number;
  refused: number;
  evaluated: number;
  pythonRepr: number;
  disagreements: number;
  crashes: number;
}

describe.skipIf(!SHARED_AVAILABLE)('mutation fuzz: oracle vs @ewp/core on mutated pack fixtures', () => {
  it(`agrees on every mutated view (${FULL ? 'full set' : 'deterministic sample; EWP_FUZZ_FULL=1 for all'})`, () => {
    const started = Date.now();
    const total: Row = { views: 0, refused: 0, evaluated: 0, pythonRepr: 0, disagreements: 0, crashes: 0 };
    const problems: string[] = [];
    const perFixture: Array<[string, Row]> = [];
    // The full run also mutates the 35 invalid views (a mutation can repair or re-break them).
    const bases = FULL ? [...packFiles('fixtures'), ...packFiles('invalid').map((f) => ({ ...f, name: `invalid/${f.name}` }))] : packFiles('fixtures');
    for (const fixture of bases) {
      const root = readJsonText(fixture.text);
      const row: Row = { views: 0, refused: 0, evaluated: 0, pythonRepr: 0, disagreements: 0, crashes: 0 };
      for (const path of sampled(root, allPaths(root))) {
        for (const token of TOKENS) {
          const text = writeJsonText(root, { path, token });
          row.views++;
          const oracle = evaluateHarnessLine(`{"view": ${text}}`);
          // The core gets T exactly as the harness would: the view's own key, decoded by the core's reader.
          const parsed = parseJson(text) as Record<string, unknown>;
          const core = coreOutcome(text, parsed !== null && typeof parsed === 'object' ? (parsed.evaluated_at ?? null) : null);
          if (!core.ok && core.errorClass === 'CRASH') row.crashes++;
          if (!oracle.ok && oracle.pythonRepr === true) {
            row.pythonRepr++;
            if (!core.ok && core.errorClass !== 'InvalidEvidenceView') {
              row.disagreements++;
              problems.push(`${fixture.name} ${JSON.stringify(path)} := ${String(token)}: python_repr view, core ${core.errorClass} ${core.code}`);
            }
            continue;
          }
          const problem = disagreement(oracle, core);
          if (problem !== null) {
            row.disagreements++;
            if (problems.length < 25) problems.push(`${fixture.name} ${JSON.stringify(path)} := ${String(token)}: ${problem}`);
          } else if (oracle.ok) row.evaluated++;
          else row.refused++;
        }
      }
      perFixture.push([fixture.name, row]);
      for (const k of Object.keys(total) as Array<keyof Row>) total[k] += row[k];
      console.log(`mutation fuzz: ${fixture.name}: ${row.views} views, ${row.disagreements} disagreements (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
    const seconds = (Date.now() - started) / 1000;
    const table = [
      '| fixture | views | refused (both) | evaluated (equal) | python_repr skipped | disagreements | core crashes |',
      '|---|---|---|---|---|---|---|',
      ...perFixture.map(([n, r]) => `| ${n} | ${r.views} | ${r.refused} | ${r.evaluated} | ${r.pythonRepr} | ${r.disagreements} | ${r.crashes} |`),
      `| **total** | ${total.views} | ${total.refused} | ${total.evaluated} | ${total.pythonRepr} | ${total.disagreements} | ${total.crashes} |`,
    ].join('\n');
    console.log(`${table}\nmutation fuzz: ${FULL ? 'full' : 'sampled'} run, ${total.views} views in ${seconds.toFixed(1)} s`);
    expect(problems).toEqual([]);
    expect(total.crashes).toBe(0);
    expect(total.views).toBe(total.refused + total.evaluated + total.pythonRepr);
  }, 1_800_000);
});
