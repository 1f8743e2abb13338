/**
 * The end-to-end gate scenario through the ADK binding: a superseded fact, an open conflict, a stale
 * check and a retracted record, each a call through a real InMemoryRunner. The binding decides as
 * `mayAct` does over the warrant at the call's T (and, once a record the last decision rested on is
 * retracted, as the recording gate bounded by the recovery gate does), runs the tool only on MAY_ACT,
 * and records each decision under the gate `adk`.
 */
import { type Action, mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { decideGate, listDecisions, recordRetraction } from '@ewp/tools';
import { describe, expect, it } from 'vitest';
import { fixtureStore, T0 } from '../../test/fixture-store.js';
import { type AdkGateCase, adkGatedCall } from '../../test/gated-call.js';
import { ADK_GATE } from './adk-call.js';

const LATER = new Date('2026-10-05T00:00:00Z');
const action = (c: AdkGateCase): Action => ({ action_id: 'restart', kind: 'restart', risk: c.risk, reversible: c.reversible });

/** `mayAct` over the warrant of the stored view at the case's T; nothing stored is DENY. */
async function mayActOf(store: EvidenceStore, c: AdkGateCase) {
  const view = await store.get(c.proposition);
  return view === undefined ? 'DENY' : mayAct(warrantNow(view, REFERENCE_V2, c.at.toISOString()), action(c));
}

const SCENARIO: readonly [string, AdkGateCase][] = [
  ['a verified, current fact', { proposition: 'P-win', risk: 'high', reversible: true, at: T0 }],
  ['a superseded fact', { proposition: 'P-old', risk: 'low', reversible: true, at: T0 }],
  ['an open conflict', { proposition: 'P-x', risk: 'high', reversible: false, at: T0 }],
  ['an open conflict, low risk', { proposition: 'P-x', risk: 'low', reversible: true, at: T0 }],
  ['a stale check, irreversible high risk', { proposition: 'P-win', risk: 'high', reversible: false, at: LATER }],
  ['a stale check, medium risk', { proposition: 'P-win', risk: 'medium', reversible: true, at: LATER }],
  ['nothing stored', { proposition: 'P-unknown', risk: 'low', reversible: true, at: T0 }],
];

describe('the gate scenario through the ADK binding', () => {
  it('decides every case as mayAct, runs the tool only on MAY_ACT, and records each under adk', async () => {
    const store = await fixtureStore();
    const got = [];
    for (const [label, c] of SCENARIO) got.push({ label, want: await mayActOf(store, c), ...(await adkGatedCall(store, c)) });
    for (const g of got) {
      expect(g.decision, g.label).toBe(g.want);
      expect(g.calls, g.label).toEqual(g.want === 'MAY_ACT' ? ['server01'] : []);
      expect(g.verdict, g.label).toBe(g.want === 'MAY_ACT' ? 'ALLOW' : 'BLOCK');
      if (g.want !== 'MAY_ACT') expect(g.output, g.label).toMatchObject({ ewpGate: g.want, propositionId: expect.any(String) });
    }
    // The scenario's outcomes are not all alike: the gate had something to decide in each.
    expect(new Set(got.map((g) => g.want))).toEqual(new Set(['MAY_ACT', 'REQUIRE_CONFIRMATION', 'DENY']));
    const records = await listDecisions(store);
    expect(records.map((r) => [r.record.gate, r.record.decision])).toEqual(got.map((g) => [ADK_GATE, g.want]));
  });

  it('a retracted record: the action its decision rested on is held, as the recording gate holds it, and does not run', async () => {
    const store = await fixtureStore();
    const verified: AdkGateCase = { proposition: 'P-win', risk: 'high', reversible: true, at: T0 };
    expect(await adkGatedCall(store, verified)).toMatchObject({ decision: 'MAY_ACT', calls: ['server01'] });
    const check = (await store.get('P-win'))?.checks[0]?.check_id as string;
    await recordRetraction(store, { proposition_id: 'P-win', records: [`check:${check}`], note: 'the WinRM reading was of another host' });
    // The library's recording gate on the same ledger, deciding without recording: what the binding must answer.
    const reference = await decideGate(
      {
        proposition: 'P-win',
        action: { id: 'restart', kind: 'restart', risk: verified.risk, reversible: verified.reversible },
        store,
        now: () => T0,
        record: { gate: 'reference', dryRun: true },
      },
      {},
      { gate: 'reference', tool: 'restart', callId: undefined },
    );
    expect(reference.decision).not.toBe('MAY_ACT');
    const after = await adkGatedCall(store, verified);
    expect(after).toMatchObject({ decision: reference.decision, calls: [], verdict: 'BLOCK', output: { ewpGate: reference.decision } });
    expect(String((after.output as { reason: string }).reason)).toContain('P-win (evidence_refuted)');
  });
});
