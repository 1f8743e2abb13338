/** The tool-contract suite through Mastra `Agent.generate`: a mock model emits each call. */
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { listDecisions } from '@ewp/tools';
import { runToolContract } from '@ewp/tools/testing';
import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../ai-sdk/test/scripted-model.js';
import { mastraContractBinding } from '../../test/contract-binding.js';
import { ewpTools } from './ewp-tools.js';

const T0 = new Date('2026-09-21T21:00:00Z');

runToolContract(mastraContractBinding);

describe('ewpTools ewp_may_act', () => {
  it('records under the gate mastra with the toolCallId of the call, and claims that call once', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const agent = new Agent({ id: 'ops', name: 'ops', instructions: 'call tools', model: scriptedModel([]), tools });
    const input = { proposition_id: 'P-win', action: { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true } };
    const ask = async () => {
      const model = scriptedModel([{ toolCalls: [{ id: 'call-ma-1', name: 'ewp_may_act', input }] }, { text: 'ok' }]);
      const result = await agent.generate('go', { model, maxSteps: 2 });
      return JSON.parse(JSON.stringify(result.toolResults[0]?.payload.result)) as Record<string, unknown>;
    };
    const out = await ask();
    expect(out).toMatchObject({ decision: 'MAY_ACT', recorded: true, call_id: 'call-ma-1', claimed: true });
    const decisions = await listDecisions(store);
    expect(decisions.map((d) => [d.record.gate, d.record.call_id, d.decision_id])).toEqual([['mastra', 'call-ma-1', out.decision_id]]);
    // The same call id is one call: asked again, it is not claimed a second time.
    expect(await ask()).toMatchObject({ error: { code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' } });
  });
});
