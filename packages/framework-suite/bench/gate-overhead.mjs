// Gate overhead per tool call in each framework, against the same tool ungated, in one run: p50 and
// p99 of both and of their difference (ms). AI SDK 6 (generateText + gateTool), LangChain v1
// (createAgent + warrantMiddleware), the Claude Code hook (`ewp hook pre-tool-use` as a process,
// against a minimal Node hook process answering allow), and AI SDK 7 (generateText + toolApproval,
// run under the Node 22 lane's binary). Needs the packages built (`pnpm build`).
// Usage: pnpm --filter @ewp/framework-suite bench   (EWP_BENCH_QUICK=1: fewer samples)
// Results: <repo>/bench/results/framework-gates.json
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gateTool } from '@ewp/ai-sdk';
import { warrantMiddleware } from '@ewp/langchain/middleware';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { tool as lcTool } from '@langchain/core/tools';
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { z } from 'zod';
import { ensureNode22 } from '../../../scripts/test-node22.mjs';
import { overhead } from '../../../bench/latency.mjs';
import { QUICK, REPO, writeResults } from '../../../bench/machine.mjs';

const N = QUICK ? 60 : 300;
const N_PROCESS = QUICK ? 10 : 40;
const view = JSON.parse(readFileSync(`${REPO}conformance/pack/fixtures/08-verified-now.json`, 'utf8'));
const T0 = () => new Date('2026-09-21T21:00:00Z');
const action = { action_id: 'restart', kind: 'restart', risk: 'high', reversible: true };
const store = new MemoryEvidenceStore();
await store.put(view);
const rows = [];
// Every tool call has its own id, as a model gives them: a gate runs one call id once.
let callNo = 0;

// AI SDK 6: one generateText step with one tool call.
{
  const restart = tool({ description: 'restart', inputSchema: z.object({ server: z.string() }), execute: async ({ server }) => ({ restarted: server }) });
  const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'tool-call', toolCallId: `c${++callNo}`, toolName: 'restart', input: '{"server":"s1"}' }],
      finishReason: { unified: 'tool-calls' },
      usage,
      warnings: [],
    }),
  });
  const gated = gateTool(restart, { proposition: 'P-win', action, store, now: T0 });
  rows.push({
    framework: 'AI SDK 6 generateText + gateTool',
    node: process.version,
    ...(await overhead(
      () => generateText({ model, tools: { restart }, prompt: 'x' }),
      () => generateText({ model, tools: { restart: gated }, prompt: 'x' }),
      N,
    )),
  });
}

// LangChain v1: createAgent, one tool call then an answer (two model turns), with and without the middleware.
{
  const restart = lcTool(async ({ server }) => `restarted ${server}`, { name: 'restart', description: 'restart', schema: z.object({ server: z.string() }) });
  // The fake model hands out this object as its tool call; each invocation gives it a new id.
  const call = { name: 'restart', args: { server: 's1' }, id: 'c0' };
  const model = () => new FakeToolCallingModel({ toolCalls: [[call], []] });
  const plain = createAgent({ model: model(), tools: [restart] });
  const gated = createAgent({
    model: model(),
    tools: [restart],
    middleware: [warrantMiddleware({ restart: { proposition: 'P-win', action, store, now: T0 } })],
  });
  const input = () => {
    call.id = `c${++callNo}`;
    return { messages: [{ role: 'user', content: 'restart s1' }] };
  };
  rows.push({
    framework: 'LangChain createAgent + warrantMiddleware',
    node: process.version,
    ...(await overhead(
      () => plain.invoke(input()),
      () => gated.invoke(input()),
      Math.round(N / 3),
    )),
  });
}

// Claude Code hook: a process per tool call, the event on stdin, the answer on stdout.
const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-hook-'));
try {
  const db = join(dir, 'ewp.sqlite');
  const sqlite = new SqliteEvidenceStore(db);
  await sqlite.put(view);
  await sqlite.close();
  const map = join(dir, 'tools.json');
  writeFileSync(map, JSON.stringify({ tools: [{ match: 'restart', proposition: 'P-win', action: { kind: 'restart', risk: 'low' } }] }));
  const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'restart', tool_input: { server: 's1' }, tool_use_id: 't' });
  const minimal =
    "let s='';process.stdin.on('data',(d)=>{s+=d});process.stdin.on('end',()=>{JSON.parse(s);process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'allow',permissionDecisionReason:'ok'}})+'\\n')})";
  const run = (args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('error', reject);
      child.on('close', () => (out.includes('"permissionDecision"') ? resolve() : reject(new Error(`no answer: ${out} ${err}`))));
      child.stdin.end(event);
    });
  const bin = `${REPO}packages/cli/dist/bin.js`;
  rows.push({
    framework: 'Claude Code hook: ewp hook pre-tool-use process (baseline: a minimal Node hook process)',
    node: process.version,
    ...(await overhead(
      () => run(['-e', minimal]),
      () => run([bin, 'hook', 'pre-tool-use', '--map', map, '--db', db]),
      N_PROCESS,
      3,
    )),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// AI SDK 7 needs Node 22: its row comes from the Node 22 binary of the test lane.
{
  const node22 = ensureNode22();
  const r = spawnSync(node22, [`${REPO}packages/ai-sdk-v7-test/bench/tool-approval.mjs`, String(N)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`AI SDK 7 bench failed: ${r.stderr}`);
  rows.push(JSON.parse(r.stdout.trim().split('\n').at(-1)));
}

const path = writeResults('framework-gates', {
  baseline: 'the same tool call ungated, sampled in turn with the gated call in the same run (the hook: a minimal Node hook process)',
  store: 'MemoryEvidenceStore (the hook: a SQLite ledger file), P-win MAY_ACT',
  rows,
});
for (const r of rows) {
  console.log(
    `${r.framework}\n  ungated p50 ${r.ungated_p50_ms} ms p99 ${r.ungated_p99_ms} ms | gated p50 ${r.gated_p50_ms} ms p99 ${r.gated_p99_ms} ms | overhead p50 ${r.overhead_p50_ms} ms p99 ${r.overhead_p99_ms} ms (${r.samples} samples, node ${r.node})`,
  );
}
console.log(`-> ${path}`);
