// Gate overhead per tool call through Google ADK: one run of an LlmAgent in an InMemoryRunner whose
// model (a scripted BaseLlm) calls `restart` once and then answers, with the tool gated by
// warrantCallbacks (MAY_ACT on a stored view: the before-agent BLOCK, the decision recorded, the verdict
// serialized to callback state and read back, runDecision claiming the call and recording its outcome)
// against the same tool ungated, sampled in turn in the same process. Needs the package built (`pnpm build`).
// Usage: pnpm --filter @ewp/adk bench   (EWP_BENCH_QUICK=1: fewer samples)
// Results: <repo>/bench/results/adk-gate.json
import { readFileSync } from 'node:fs';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { BaseLlm, FunctionTool, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';
import { overhead } from '../../../bench/latency.mjs';
import { QUICK, REPO, writeResults } from '../../../bench/machine.mjs';
import { warrantCallbacks } from '../dist/index.js';

const N = QUICK ? 100 : 600;
const store = new MemoryEvidenceStore();
await store.put(JSON.parse(readFileSync(`${REPO}conformance/pack/fixtures/08-verified-now.json`, 'utf8')));
const restart = new FunctionTool({
  name: 'restart',
  description: 'restart',
  parameters: z.object({ server: z.string() }),
  execute: async ({ server }) => ({ restarted: server }),
});
const callbacks = warrantCallbacks({
  gates: {
    restart: {
      proposition: 'P-win',
      action: { id: 'restart', kind: 'restart', risk: 'high', reversible: true },
      store,
      now: () => new Date('2026-09-21T21:00:00Z'),
    },
  },
});

let callNo = 0;
/** Answers a call of `restart` (with a function-call id of its own: the gate runs one call once), then a text. */
class ScriptedLlm extends BaseLlm {
  async *generateContentAsync(request) {
    const answered = request.contents.at(-1)?.parts?.some((p) => p.functionResponse);
    yield {
      content: { role: 'model', parts: [answered ? { text: 'ok' } : { functionCall: { name: 'restart', args: { server: 's1' }, id: `c${++callNo}` } }] },
    };
  }
}

const runWith = (extra) => {
  const agent = new LlmAgent({ name: 'bench', model: new ScriptedLlm({ model: 'scripted' }), tools: [restart], ...extra });
  const runner = new InMemoryRunner({ agent, appName: 'bench' });
  return async () => {
    let last;
    for await (const event of runner.runEphemeral({ userId: 'u', newMessage: { role: 'user', parts: [{ text: 'restart s1' }] } })) last = event;
    if (last?.content?.parts?.[0]?.text !== 'ok') throw new Error(`the run did not finish: ${JSON.stringify(last?.content)}`);
  };
};

const row = await overhead(runWith({}), runWith(callbacks), N);
const path = writeResults('adk-gate', {
  description:
    'one ADK run (InMemoryRunner.runEphemeral: tool call + answer, scripted BaseLlm) with the tool gated by warrantCallbacks (MAY_ACT) vs ungated, sampled in turn; ms',
  rows: [{ operation: 'runEphemeral(): restart via warrantCallbacks vs plain tool', store: 'MemoryEvidenceStore', ...row }],
});
console.log(JSON.stringify(row), '->', path);
