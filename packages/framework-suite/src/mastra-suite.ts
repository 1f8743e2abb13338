/**
 * The Mastra entry points over one store (Node 22, as @mastra/core): the tool contract through
 * `Agent.generate` (`ewpTools`, an AI SDK mock model) and the warrant gate (`gate` +
 * `warrantToolHooks`) on the gate cases of `fixture-ledger.ts`, compared with the reference store and
 * with the outcomes the fixtures give.
 */
import { gate as mastraGate, warrantToolHooks } from '@ewp/mastra';
import type { EvidenceStore } from '@ewp/ledger';
import { runToolContract } from '@ewp/tools/testing';
import { describe, expect, it } from 'vitest';
import { mastraContractBinding } from '../../mastra/test/contract-binding.js';
import { opsAgent, restartModel, restartTool } from '../../mastra/test/scripted-agent.js';
import { caseGateOptions, GATE_CASES, type GateCase, REFERENCE, withStore } from './fixture-ledger.js';
import { withoutDecisionId } from './framework-suite.js';
import type { StoreFactory } from './store-factories.js';

let callNo = 0;

/** One gated call through a Mastra agent's stream: whether the tool ran, what the model got, whether approval was asked. */
async function mastraGatedCall(store: EvidenceStore, c: GateCase) {
  const calls: string[] = [];
  const gate = caseGateOptions(store, c);
  // Each case is a call of its own: its own call id (a gate runs one call id once per ledger).
  const agent = opsAgent(
    { restart: mastraGate(restartTool(calls), gate) },
    restartModel(['server01'], 'done', `case-${++callNo}`),
    warrantToolHooks({ restart: gate }),
  );
  const stream = await agent.stream('restart server01');
  let approvalRequested = false;
  for await (const chunk of stream.fullStream) if (chunk.type === 'tool-call-approval') approvalRequested = true;
  const results = await stream.toolResults;
  return { calls, output: JSON.parse(JSON.stringify(results[0]?.payload.result ?? null)) as unknown, approvalRequested };
}

/** Register the Mastra entry points over ledgers from `factory`. */
export function runMastraConformance(factory: StoreFactory): void {
  describe(`mastra over ${factory.name}`, () => {
    runToolContract(mastraContractBinding, factory);

    describe('Mastra gate + warrantToolHooks', () => {
      it('decides every case as over the reference store, and as the fixtures say', async () => {
        const got = await withStore(factory, async (store) => Promise.all(GATE_CASES.map((c) => mastraGatedCall(store, c))));
        const want = await withStore(REFERENCE, async (store) => Promise.all(GATE_CASES.map((c) => mastraGatedCall(store, c))));
        expect(got.map(withoutDecisionId)).toEqual(want.map(withoutDecisionId));
        expect(got[0]).toMatchObject({ calls: ['server01'], output: { restarted: 'server01' }, approvalRequested: false });
        expect(got[1]).toMatchObject({ calls: [], approvalRequested: false, output: { ewpGate: 'DENY' } });
        expect(got[3]).toMatchObject({ calls: [], output: { ewpGate: 'DENY', propositionId: 'P-x', acceptance: 'TENTATIVE', conflict: 'OPEN' } });
        expect(got[6]).toMatchObject({ calls: [], output: { ewpGate: 'DENY', viewId: null } });
      });
    });
  });
}
