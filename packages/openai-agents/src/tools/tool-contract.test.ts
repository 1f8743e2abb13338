/** The tool-contract suite through the Agents SDK runner: a scripted model emits each call. */
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { listDecisions } from '@ewp/tools';
import { runToolContract } from '@ewp/tools/testing';
import { Agent, run } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { describe, expect, it } from 'vitest';
import { openAiAgentsContractBinding } from '../../test/contract-binding.js';
import { toolOutputs } from '../../test/scripted-agent.js';
import { ewpTools } from './ewp-tools.js';

const T0 = new Date('2026-09-21T21:00:00Z');

runToolContract(openAiAgentsContractBinding);

describe('ewpTools ewp_may_act', () => {
  it('records under the gate openai-agents with the model function call id, and claims that call once', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const args = { proposition_id: 'P-win', action: { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true } };
    const ask = async () => {
      const model = new ScriptedModel([[functionCall('ewp_may_act', args, { callId: 'call-oa-1' })], [assistantMessage('ok')]]);
      return JSON.parse(JSON.stringify(toolOutputs(await run(new Agent({ name: 'ops', model, tools }), 'go'))[0])) as Record<string, unknown>;
    };
    const out = await ask();
    expect(out).toMatchObject({ decision: 'MAY_ACT', recorded: true, call_id: 'call-oa-1', claimed: true });
    const decisions = await listDecisions(store);
    expect(decisions.map((d) => [d.record.gate, d.record.call_id, d.decision_id])).toEqual([['openai-agents', 'call-oa-1', out.decision_id]]);
    // The same call id is one call: asked again, it is not claimed a second time.
    expect(await ask()).toMatchObject({ error: { code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' } });
  });
});
