// Gate overhead per tool call through a Mastra agent (Node >= 22.13): one `generate` whose AI SDK mock
// model calls `restart` once and then answers, with the tool gated by gate() + warrantToolHooks
// (MAY_ACT: requireApproval and beforeToolCall decide on a stored view, each decision recorded, and the
// call runs through runGuarded: decided again, claimed and its outcome recorded) against the same tool
// ungated, sampled in turn in the same process. Needs the package built (`pnpm build`).
// Usage: pnpm --filter @ewp/mastra bench under Node 22 (the lane's binary: .ci/node22/node_modules/.bin/node bench/gate.bench.mjs)
// Results: <repo>/bench/results/mastra-gate.json
import { readFileSync } from 'node:fs';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { overhead } from '../../../bench/latency.mjs';
import { QUICK, REPO, writeResults } from '../../../bench/machine.mjs';
import { gate as gateTool, warrantToolHooks } from '../dist/index.js';

const N = QUICK ? 100 : 600;
const store = new MemoryEvidenceStore();
await store.put(JSON.parse(readFileSync(`${REPO}conformance/pack/fixtures/08-verified-now.json`, 'utf8')));
const gate = {
  proposition: 'P-win',
  action: { risk: 'high', reversible: true },
  store,
  now: () => new Date('2026-09-21T21:00:00Z'),
};
const restart = createTool({
  id: 'restart',
  description: 'restart',
  inputSchema: z.object({ server: z.string() }),
  execute: async ({ server }) => ({ restarted: server }),
});

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
/** A model that calls `restart`, then answers, on every run. */
function model() {
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: async () =>
      turn++ % 2 === 0
        ? {
            content: [{ type: 'tool-call', toolCallId: `c${turn}`, toolName: 'restart', input: '{"server":"s1"}' }],
            finishReason: { unified: 'tool-calls' },
            usage,
            warnings: [],
          }
        : { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop' }, usage, warnings: [] },
  });
}

const agentWith = (tools, hooks) => {
  const agent = new Agent({ id: 'bench', name: 'bench', instructions: 'x', model: model(), tools, ...(hooks ? { hooks } : {}) });
  return async () => {
    const result = await agent.generate('restart s1');
    if (result.text !== 'ok' || result.toolResults.length !== 1) throw new Error('the run did not finish');
  };
};

const row = await overhead(agentWith({ restart }), agentWith({ restart: gateTool(restart, gate) }, warrantToolHooks({ restart: gate })), N);
const path = writeResults('mastra-gate', {
  description:
    'one Agent.generate (tool call + answer, MockLanguageModelV3) with the tool gated by gate() + warrantToolHooks (MAY_ACT) vs ungated, sampled in turn; ms',
  rows: [{ operation: 'generate(): restart via the warrant gate vs plain tool', store: 'MemoryEvidenceStore', ...row }],
});
console.log(JSON.stringify(row), '->', path);
