// @ewp/core against the reference's generated vectors (vectors/README.md): whole evaluations,
// the derived view id and the action gate.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  canonicalViewText,
  decodeView,
  deriveViewId,
  EwpError,
  InvalidEvidenceView,
  JsonFloat,
  mayAct,
  normalizeWarrantView,
  parseJson,
  REFERENCE_V2,
  type Warrant,
  warrantNow,
} from '@ewp/core';
import { describe, expect, it } from 'vitest';

const VECTORS = new URL('../vectors/', import.meta.url);

const ERROR_CLASS: Record<string, string> = {
  InvalidEvidenceView: 'InvalidEvidenceView',
  UnknownPolicy: 'ValueError',
  InvalidEvaluatedAt: 'ValueError',
  TimestampOutOfRange: 'OverflowError',
};

interface Line {
  view: unknown;
  evaluated_at: unknown;
  case: string;
  flags: string[];
  expected: { ok: true; warrant: unknown } | { ok: false; error: string };
}

// The expected warrant is reference output: its numbers compare as plain JS numbers.
function plain(v: unknown): unknown {
  if (v instanceof JsonFloat) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

describe('evaluate.jsonl.gz: the reference harness output', () => {
  const lines = gunzipSync(readFileSync(new URL('evaluate.jsonl.gz', VECTORS)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);

  it('has 7558 lines and @ewp/core agrees on every one outside python_repr', () => {
    expect(lines).toHaveLength(7558);
    const disagreements: string[] = [];
    let reprRefused = 0;
    for (const text of lines) {
      const line = parseJson(text) as Line;
      let outcome: { ok: true; warrant: unknown } | { ok: false; errorClass: string; error: unknown };
      try {
        const view = decodeView(line.view);
        outcome = { ok: true, warrant: normalizeWarrantView(warrantNow(view, REFERENCE_V2, line.evaluated_at as string)) };
      } catch (error) {
        if (!(error instanceof EwpError)) throw error; // a crash, never acceptable
        outcome = { ok: false, errorClass: ERROR_CLASS[error.name] ?? error.name, error };
      }
      const expected = line.expected;
      if (line.flags.includes('python_repr')) {
        // Project rule: non-empty arrays/objects in text fields are refused, not repr'd.
        if (!outcome.ok && (outcome.error as EwpError).code === 'UNSUPPORTED_TEXT_VALUE') {
          reprRefused++;
          continue;
        }
      }
      if (expected.ok) {
        if (!outcome.ok) disagreements.push(`${line.case}: refused (${String(outcome.error)}) but reference evaluated`);
        else if (JSON.stringify(outcome.warrant) !== JSON.stringify(expected.warrant)) {
          // key order differs between emitters; compare structurally
          try {
            expect(outcome.warrant).toStrictEqual(plain(expected.warrant));
          } catch (e) {
            disagreements.push(`${line.case}: warrant differs ${String(e).slice(0, 1500)}`);
          }
        }
      } else {
        const cls = expected.error.split(':')[0];
        if (outcome.ok) disagreements.push(`${line.case}: evaluated but reference refused (${expected.error})`);
        else if (outcome.errorClass !== cls) disagreements.push(`${line.case}: ${outcome.errorClass} vs ${cls}`);
      }
    }
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(reprRefused).toBeGreaterThan(0);
  });
});

describe('content_view_id.json: the derived view id', () => {
  const { cases } = parseJson(readFileSync(new URL('content_view_id.json', VECTORS), 'utf8')) as {
    cases: { note: string; view: unknown; canonical: string; view_id: string }[];
  };
  it('has 100 cases', () => expect(cases).toHaveLength(100));
  for (const c of cases) {
    it(c.note, () => {
      const view = decodeView(c.view);
      expect(canonicalViewText(view)).toBe(c.canonical);
      expect(deriveViewId(view)).toBe(c.view_id);
      expect(view.view_id).toBe(c.view_id);
    });
  }
});

describe('may_act.json: the whole action gate', () => {
  const table = JSON.parse(readFileSync(new URL('may_act.json', VECTORS), 'utf8')) as {
    unknown_risk: { risk: string }[];
    rows: (Pick<Warrant, 'acceptance' | 'conflict' | 'currency' | 'sufficiency'> & {
      risk: 'low' | 'medium' | 'high';
      reversible: boolean;
      high_requires_accepted: boolean;
      high_requires_no_open_conflict: boolean;
      decision: string;
    })[];
  };
  it('agrees on all 1944 rows, with every verification value', () => {
    expect(table.rows).toHaveLength(1944);
    for (const row of table.rows) {
      for (const verification of ['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN'] as const) {
        const warrant: Warrant = { ...row, verification, strength: 0, rationale_codes: [] };
        const decision = mayAct(warrant, { action_id: 'a', kind: 'k', risk: row.risk, reversible: row.reversible }, row);
        if (decision !== row.decision) expect({ row, verification, decision }).toBeUndefined();
      }
    }
  });
  it('refuses unknown risks', () => {
    const warrant: Warrant = {
      acceptance: 'ACCEPTED',
      conflict: 'NONE',
      verification: 'EXTERNAL',
      currency: 'CURRENT',
      sufficiency: 'SUFFICIENT',
      strength: 0,
      rationale_codes: [],
    };
    for (const { risk } of table.unknown_risk) {
      expect(() => mayAct(warrant, { action_id: 'a', kind: 'k', risk: risk as 'low' })).toThrow(expect.objectContaining({ code: 'INVALID_ACTION' }));
    }
  });
});

describe('typed refusals carry a code and a path', () => {
  it('names the offending field', () => {
    try {
      decodeView({ proposition_id: 'P', checks: [{ check_id: 'k', method: 'm', scope: 's', observed_at: 't', result: 'pending', source: {} }] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEvidenceView);
      expect((error as InvalidEvidenceView).path).toBe('$.checks[0].source.source_id');
    }
  });
});
