// Cost of a gated tool call: decideGate (latest snapshot read + warrantNow + mayAct) against the
// same decision on a view already in hand (the kernel alone), and a full tool round trip through
// generateText with a mock model, in the same run.
// Usage: pnpm --filter @ewp/ai-sdk bench   (EWP_BENCH_QUICK=1: CI-sized)
// Results: <repo>/bench/results/ai-sdk-gate.json
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { decideGate } from '@ewp/tools';
import { gate as gateTool } from '../dist/index.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const QUICK = process.env.EWP_BENCH_QUICK === '1';
const MIN_MS = QUICK ? 300 : 2000;

async function rate(op) {
  for (let i = 0; i < 20; i++) await op();
  let best = 0;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    let n = 0;
    let elapsed = 0;
    while (elapsed < MIN_MS / 5) {
      await op();
      n++;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (n * 1000) / elapsed);
  }
  return best;
}

const view = JSON.parse(readFileSync(`${REPO}conformance/pack/fixtures/08-verified-now.json`, 'utf8'));
const store = new MemoryEvidenceStore();
await store.put(view);
const stored = await store.get('P-win');
const now = () => new Date('2026-09-21T21:00:00Z');
const action = { action_id: 'restart', kind: 'restart', risk: 'high', reversible: true };
const gate = { name: 'restart', proposition: 'P-win', action: { id: 'restart', kind: 'restart', risk: 'high', reversible: true }, store, now };
const restart = tool({ description: 'restart', inputSchema: z.object({ server: z.string() }), execute: async ({ server }) => ({ restarted: server }) });
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
// Every call has its own id, as a model gives them: the gate runs one call id once.
let callNo = 0;
const toolCallModel = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'tool-call', toolCallId: `c${++callNo}`, toolName: 'restart', input: '{"server":"s1"}' }],
      finishReason: { unified: 'tool-calls' },
      usage,
      warnings: [],
    }),
  });
const plainTools = { restart };
const gatedTools = { restart: gateTool(restart, gate) };

const rows = [
  {
    operation: 'kernel: warrantNow + mayAct (view in hand)',
    ops_per_s: await rate(async () => mayAct(warrantNow(stored, REFERENCE_V2, now().toISOString()), action)),
  },
  {
    operation: 'decideGate (store read + kernel)',
    ops_per_s: await rate(() => decideGate(gate, { server: 's1' }, { gate: 'ai-sdk', tool: 'restart', callId: undefined })),
  },
  { operation: 'generateText tool call, plain tool', ops_per_s: await rate(() => generateText({ model: toolCallModel(), tools: plainTools, prompt: 'x' })) },
  { operation: 'generateText tool call, gated tool', ops_per_s: await rate(() => generateText({ model: toolCallModel(), tools: gatedTools, prompt: 'x' })) },
];
const base = rows[2].ops_per_s;
for (const r of rows) r.ratio_to_plain_tool_call = r.ops_per_s / base;

const cpus = os.cpus();
const machine = { cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length, node: process.version, note: 'shared machine: figures are indicative' };
mkdirSync(`${REPO}bench/results`, { recursive: true });
const path = `${REPO}bench/results/ai-sdk-gate.json`;
writeFileSync(
  path,
  `${JSON.stringify({ benchmark: 'ai-sdk-gate', date: new Date().toISOString(), machine, quick: QUICK, baseline: 'generateText with the same plain (ungated) tool, same run', rows }, null, 2)}\n`,
);
console.log(`gate() cost (${machine.cpu}, ${machine.cores} cores, node ${machine.node})`);
for (const r of rows)
  console.log(`${r.operation.padEnd(44)} ${r.ops_per_s.toFixed(0).padStart(9)} op/s  ${r.ratio_to_plain_tool_call.toFixed(2)}x of a plain tool call`);
console.log(`-> ${path}`);
