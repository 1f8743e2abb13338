/** The tool-contract suite through ADK's InMemoryRunner: a scripted model emits each call. */
import { loadFixtures } from '@ewp/conformance/pack';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { listDecisions } from '@ewp/tools';
import { runToolContract } from '@ewp/tools/testing';
import { getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { adkContractBinding } from '../../test/contract-binding.js';
import { functionCall, ScriptedLlm, text } from '../../test/scripted-llm.js';
import { ewpTools } from './ewp-tools.js';

const T0 = new Date('2026-09-21T21:00:00Z');

runToolContract(adkContractBinding);

describe('ewpTools ewp_may_act', () => {
  it('records under the gate adk with the invocation and function-call ids, as the gate does, and claims that call', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const args = { proposition_id: 'P-win', action: { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true } };
    const model = new ScriptedLlm([functionCall('ewp_may_act', args, 'call-adk-1'), text('ok')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model, tools }), appName: 'ops' });
    const session = await runner.sessionService.createSession({ appName: 'ops', userId: 'u' });
    let response: Record<string, unknown> | undefined;
    let invocationId: string | undefined;
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } })) {
      invocationId ??= event.invocationId;
      response ??= getFunctionResponses(event)[0]?.response;
    }
    expect(invocationId).toBeTypeOf('string');
    const callId = `${invocationId}:call-adk-1`;
    const out = JSON.parse(JSON.stringify(response)) as Record<string, unknown>;
    expect(out).toMatchObject({ decision: 'MAY_ACT', recorded: true, call_id: callId, claimed: true });
    const decisions = await listDecisions(store);
    expect(decisions.map((d) => [d.record.gate, d.record.call_id, d.decision_id])).toEqual([['adk', callId, out.decision_id]]);
  });

  it('ewp_decision_outcome reports on a decision ewp_may_act recorded under the gate adk', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(structuredClone(loadFixtures().find((f) => f.name === '08-verified-now')!.view));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const call = async (name: string, args: Record<string, unknown>, id: string) => {
      const runner = new InMemoryRunner({
        agent: new LlmAgent({ name: 'ops', model: new ScriptedLlm([functionCall(name, args, id), text('ok')]), tools }),
        appName: 'ops',
      });
      const session = await runner.sessionService.createSession({ appName: 'ops', userId: 'u' });
      let response: Record<string, unknown> | undefined;
      for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } }))
        response ??= getFunctionResponses(event)[0]?.response;
      return JSON.parse(JSON.stringify(response)) as Record<string, unknown>;
    };
    const decided = await call(
      'ewp_may_act',
      { proposition_id: 'P-win', action: { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true } },
      'adk-2',
    );
    expect(decided).toMatchObject({ decision: 'MAY_ACT', claimed: true });
    const reported = await call('ewp_decision_outcome', { decision_id: decided.decision_id, outcome: 'succeeded' }, 'adk-3');
    expect(reported).toEqual({ recorded: true, decision_id: decided.decision_id, call_id: decided.call_id, outcome: 'succeeded' });
  });
});
