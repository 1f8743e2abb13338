/**
 * The oracle's action gate against vectors/may_act.json (all 1,944 rows and the refused risks),
 * and against @ewp/core's mayAct on every row and on WarrantViews of generated views.
 */
import { EwpError, InvalidAction, mayAct, type WarrantView } from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryCase, viewToJsonText } from '../src/generators/index.js';
import { evaluateView, gateDecision, type GateInput } from '../src/oracle/index.js';
import { SHARED_AVAILABLE, vectorText } from './pack-files.js';

interface Row {
  acceptance: string;
  conflict: string;
  currency: string;
  sufficiency: string;
  risk: string;
  reversible: boolean;
  high_requires_accepted: boolean;
  high_requires_no_open_conflict: boolean;
  decision: string;
}

function toInput(r: Omit<Row, 'decision'>): GateInput {
  return {
    acceptance: r.acceptance,
    conflict: r.conflict,
    currency: r.currency,
    sufficiency: r.sufficiency,
    risk: r.risk,
    reversible: r.reversible,
    highRequiresAccepted: r.high_requires_accepted,
    highRequiresNoOpenConflict: r.high_requires_no_open_conflict,
  };
}

function coreDecision(warrant: WarrantView | Record<string, unknown>, r: Omit<Row, 'decision' | keyof WarrantView['warrant']>): string {
  try {
    return mayAct(
      warrant as WarrantView,
      { action_id: 'a', kind: 'k', reversible: r.reversible, risk: r.risk as 'low' },
      {
        high_requires_accepted: r.high_requires_accepted,
        high_requires_no_open_conflict: r.high_requires_no_open_conflict,
      },
    );
  } catch (err) {
    if (err instanceof InvalidAction) return 'REFUSED';
    if (err instanceof EwpError) return `EwpError ${err.code}`;
    return `CRASH ${(err as Error).name}`;
  }
}

describe.skipIf(!SHARED_AVAILABLE)('action gate: oracle vs vectors/may_act.json vs @ewp/core', () => {
  const file = JSON.parse(vectorText('may_act.json')) as { rows: Row[]; unknown_risk: Array<{ risk: string }> };

  it('the oracle reproduces all 1,944 rows and refuses the unknown risks', () => {
    expect(file.rows).toHaveLength(1944);
    const wrong = file.rows.filter((r) => gateDecision(toInput(r)) !== r.decision);
    expect(wrong).toEqual([]);
    for (const { risk } of file.unknown_risk) {
      expect(gateDecision(toInput({ ...(file.rows[0] as Row), risk }))).toBe('REFUSED');
    }
  });

  it('@ewp/core agrees with the oracle on every row, with every verification value', () => {
    const wrong: string[] = [];
    for (const r of file.rows) {
      for (const verification of ['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN']) {
        const warrant = {
          warrant: {
            acceptance: r.acceptance,
            conflict: r.conflict,
            currency: r.currency,
            sufficiency: r.sufficiency,
            verification,
            strength: 0,
            rationale_codes: [],
          },
        };
        const got = coreDecision(warrant, r);
        if (got !== gateDecision(toInput(r))) wrong.push(`${JSON.stringify(r)} verification=${verification}: core ${got}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('@ewp/core agrees with the oracle on WarrantViews of generated views and on odd risks', () => {
    fc.assert(
      fc.property(
        arbitraryCase(),
        fc.constantFrom('low', 'medium', 'high', 'critical', '', 'HIGH'),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        ({ view, evaluatedAt }, risk, reversible, hra, hrnoc) => {
          const out = evaluateView(viewToJsonText(view), evaluatedAt);
          if (!out.ok) return;
          const axes = out.warrant.warrant as Record<string, string>;
          const r = { risk, reversible, high_requires_accepted: hra, high_requires_no_open_conflict: hrnoc };
          const want = gateDecision(
            toInput({
              ...r,
              acceptance: axes.acceptance as string,
              conflict: axes.conflict as string,
              currency: axes.currency as string,
              sufficiency: axes.sufficiency as string,
            }),
          );
          expect(coreDecision(out.warrant, r)).toBe(want);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
