// AI SDK 7 (Node 22): one generateText tool-call step with MockLanguageModelV4, the tool ungated
// against the same tool gated by toolApproval (MemoryEvidenceStore, P-win MAY_ACT). Prints one JSON row;
// run by packages/framework-suite/bench/gate-overhead.mjs under the Node 22 lane's binary.
import { readFileSync } from 'node:fs';
import { toolApproval } from '@ewp/ai-sdk';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { generateText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { overhead } from '../../../bench/latency.mjs';

const n = Number(process.argv[2] ?? 300);
const store = new MemoryEvidenceStore();
await store.put(JSON.parse(readFileSync(new URL('../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url), 'utf8')));
const restart = tool({ description: 'restart', inputSchema: z.object({ server: z.string() }), execute: async ({ server }) => ({ restarted: server }) });
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const model = new MockLanguageModelV4({
  doGenerate: async () => ({
    content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'restart', input: '{"server":"s1"}' }],
    finishReason: { unified: 'tool-calls' },
    usage,
    warnings: [],
  }),
});
const approval = toolApproval({
  restart: { proposition: 'P-win', action: { risk: 'high' }, store, now: () => new Date('2026-09-21T21:00:00Z') },
});
const row = await overhead(
  () => generateText({ model, tools: { restart }, prompt: 'x' }),
  () => generateText({ model, tools: { restart }, toolApproval: approval, prompt: 'x' }),
  n,
);
console.log(JSON.stringify({ framework: 'AI SDK 7 generateText + toolApproval', node: process.version, ...row }));
