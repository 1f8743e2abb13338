/**
 * One gated call through a real ADK runner (a scripted model asks for `restart`, `warrantCallbacks()`
 * gates it): whether the tool ran, the function response the model read, and the verdict the gate
 * left in callback state. The framework suite runs the shared gate cases through it.
 */
import type { EvidenceStore } from '@ewp/ledger';
import { type Event, FunctionTool, getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';
import { GATE_STATE_KEY, type GateState } from '../src/gate/gate-state.js';
import { warrantCallbacks } from '../src/gate/warrant-callbacks.js';
import { functionCall, ScriptedLlm, text } from './scripted-llm.js';

/** A gated action on a proposition, decided at `at` (the framework suite's GateCase). */
export interface AdkGateCase {
  proposition: string;
  risk: 'low' | 'medium' | 'high';
  reversible: boolean;
  at: Date;
}

/** What one gated call did. */
export interface AdkGatedOutcome {
  calls: string[];
  output: unknown;
  /** The gate's decision as the verdict in state says it. */
  decision: GateState['decision'];
  verdict: GateState['verdict'] | undefined;
}

let callNo = 0;

export async function adkGatedCall(store: EvidenceStore, { proposition, risk, reversible, at }: AdkGateCase): Promise<AdkGatedOutcome> {
  const calls: string[] = [];
  const restart = new FunctionTool({
    name: 'restart',
    description: 'Restart a server',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      calls.push(server);
      return { restarted: server };
    },
  });
  const callbacks = warrantCallbacks({
    gates: { restart: { proposition, action: { id: 'restart', kind: 'restart', risk, reversible }, store, now: () => at } },
  });
  // Each case is a call of its own: its own function-call id (and ADK gives each run its own invocation id).
  const model = new ScriptedLlm([functionCall('restart', { server: 'server01' }, `adk-case-${++callNo}`), text('done')]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model, tools: [restart], ...callbacks }), appName: 'suite' });
  const session = await runner.sessionService.createSession({ appName: 'suite', userId: 'u' });
  const events: Event[] = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'restart server01' }] } }))
    events.push(e);
  const responded = events.find((e) => getFunctionResponses(e).length > 0);
  const raw = responded?.actions?.stateDelta?.[GATE_STATE_KEY];
  const verdict = typeof raw === 'string' ? (JSON.parse(raw) as GateState) : undefined;
  return {
    calls,
    output: JSON.parse(JSON.stringify(getFunctionResponses(responded as Event)[0]?.response ?? null)) as unknown,
    decision: verdict?.decision ?? null,
    verdict: verdict?.verdict,
  };
}
