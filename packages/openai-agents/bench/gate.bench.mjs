// Gate overhead per tool call through the OpenAI Agents SDK runner: one run of an agent whose model
// (the SDK's ScriptedModel) calls `restart` once and then answers, with the tool gated by
// gate() (MAY_ACT: needsApproval + the input guardrail decide on a stored view, each decision
// recorded, and invoke runs through runGuarded: decided again, claimed and its outcome recorded) against the
// same tool ungated, sampled in turn in the same process. Needs the package built (`pnpm build`).
// Usage: pnpm --filter @ewp/openai-agents bench   (EWP_BENCH_QUICK=1: fewer samples)
// Results: <repo>/bench/results/openai-agents-gate.json
import { readFileSync } from 'node:fs';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Agent, run, setTracingDisabled, tool } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { z } from 'zod';
import { overhead } from '../../../bench/latency.mjs';
import { QUICK, REPO, writeResults } from '../../../bench/machine.mjs';
import { gate } from '../dist/index.js';

setTracingDisabled(true);
const N = QUICK ? 100 : 600;
const store = new MemoryEvidenceStore();
await store.put(JSON.parse(readFileSync(`${REPO}conformance/pack/fixtures/08-verified-now.json`, 'utf8')));
const restart = tool({
  name: 'restart',
  description: 'restart',
  parameters: z.object({ server: z.string() }),
  execute: async ({ server }) => `restarted ${server}`,
});
const gated = gate(restart, {
  proposition: 'P-win',
  action: { risk: 'high', reversible: true },
  store,
  now: () => new Date('2026-09-21T21:00:00Z'),
});

let callNo = 0;
const agentWith = (t) => {
  const model = new ScriptedModel();
  const agent = new Agent({ name: 'bench', model, tools: [t] });
  return async () => {
    // Every call has its own id, as a model gives them: the gate runs one call id once.
    model.enqueue([functionCall('restart', { server: 's1' }, { callId: `c${++callNo}` })], [assistantMessage('ok')]);
    const result = await run(agent, 'restart s1');
    if (result.finalOutput !== 'ok') throw new Error('the run did not finish');
  };
};

const row = await overhead(agentWith(restart), agentWith(gated), N);
const path = writeResults('openai-agents-gate', {
  description: 'one agent run (tool call + answer, ScriptedModel) with the tool gated by gate() (MAY_ACT) vs ungated, sampled in turn; ms',
  rows: [{ operation: 'run(): restart via gate() vs plain tool', store: 'MemoryEvidenceStore', ...row }],
});
console.log(JSON.stringify(row), '->', path);
