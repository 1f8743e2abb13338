/**
 * The committed scenarios through the framework bindings: the MCP server (`ewp_may_act`, called by
 * the official MCP SDK client over an in-memory transport), the Claude Code PreToolUse hook (the
 * event JSON answered by @ewp/claude-code), and, with each framework's own mock model scripted to
 * call the tool, the AI SDK (`gate` in `generateText`), the OpenAI Agents SDK (`gate`
 * in a run) and LangChain (`warrantMiddleware` in `createAgent`). Each decides on its own replay of
 * the scenario at its decision time; its decision must equal the library's gate arm (d).
 */
import { readFileSync } from 'node:fs';
import { gate as aiSdkGate } from '@ewp/ai-sdk';
import { answerPreToolUse, parseToolMapping } from '@ewp/claude-code';
import { warrantMiddleware } from '@ewp/langchain/middleware';
import { createEwpMcpServer } from '@ewp/mcp';
import { gate as agentsGate } from '@ewp/openai-agents';
import { tool as langchainTool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { run } from '@openai/agents-core';
import { generateText, stepCountIs, tool } from 'ai';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../ai-sdk/test/scripted-model.js';
import { agentWith, restartModel, restartTool, toolOutputs } from '../../openai-agents/test/scripted-agent.js';
import { COMMITTED_SCENARIOS, type Decision, decideWithLayer, decisionStore, decodeScenarios, type Scenario } from '../src/index.js';

/** The scenario's action as a binding's gate options name it (camelCase), under an id of the binding's own. */
function gateAction(d: Awaited<ReturnType<typeof decisionStore>>, id: string) {
  return { id, kind: d.action.kind, risk: d.action.risk, reversible: d.action.reversible };
}

const scenarios = decodeScenarios(readFileSync(COMMITTED_SCENARIOS, 'utf8'));

const FROM_MCP: Record<string, Decision> = { MAY_ACT: 'act', REQUIRE_CONFIRMATION: 'confirm', DENY: 'hold' };
const FROM_CLAUDE: Record<string, Decision> = { allow: 'act', ask: 'confirm', deny: 'hold' };

/** The MCP binding's decision: a client calls `ewp_may_act` on a server over the replayed ledger, its clock at the decision time. */
async function viaMcp(s: Scenario): Promise<Decision | 'no_claim'> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const server = createEwpMcpServer({ store: d.store, roles: { ingest: false }, clock: () => new Date(d.at) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'harm-bench', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const result = await client.callTool({
      name: 'ewp_may_act',
      arguments: { proposition_id: d.propositionId, action: { action_id: `${s.id}:mcp`, kind: s.act.tool, risk: s.act.risk, reversible: s.act.reversible } },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const decision = (result.structuredContent as { decision: string }).decision;
    return FROM_MCP[decision]!;
  } finally {
    await client.close();
  }
}

/** The Claude Code hook's decision: a PreToolUse event for the scenario's tool, mapped to the claim's proposition. */
async function viaClaudeHook(s: Scenario): Promise<Decision | 'no_claim'> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const mapping = parseToolMapping({
    tools: [{ match: s.act.tool, proposition: d.propositionId, action: { kind: s.act.tool, risk: s.act.risk, reversible: s.act.reversible } }],
  });
  const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: s.act.tool, tool_input: { subject: s.act.subject ?? null } });
  const answer = await answerPreToolUse(event, { mapping, store: d.store, now: () => new Date(d.at) });
  const permission = (answer as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;
  return FROM_CLAUDE[permission]!;
}

/** The decision a framework's gated call shows: the tool ran, an approval was asked, or the gate refused it. */
function outcome(ran: boolean, confirmation: boolean, refused: unknown): Decision | string {
  if (ran) return 'act';
  if (confirmation) return 'confirm';
  const gate = (typeof refused === 'string' && refused.startsWith('{') ? JSON.parse(refused) : refused) as { ewpGate?: string } | undefined;
  return gate?.ewpGate === 'DENY' ? 'hold' : `unexpected: ${JSON.stringify(refused)}`;
}

/** The AI SDK binding: `generateText` with a mock model scripted to call the gated tool once. */
async function viaAiSdk(s: Scenario): Promise<Decision | string> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const calls: string[] = [];
  const act = tool({
    description: `Run ${s.act.tool}`,
    inputSchema: z.object({ subject: z.string() }),
    execute: async ({ subject }) => {
      calls.push(subject);
      return { done: subject };
    },
  });
  const gated = aiSdkGate(act, {
    name: 'act',
    proposition: d.propositionId,
    action: gateAction(d, `${s.id}:ai-sdk`),
    store: d.store,
    now: () => new Date(d.at),
  });
  const model = scriptedModel([{ toolCalls: [{ id: `${s.id}-ai`, name: 'act', input: { subject: s.act.subject ?? s.id } }] }, { text: 'done' }]);
  const result = await generateText({ model, tools: { act: gated }, prompt: s.act.tool, stopWhen: stepCountIs(3) });
  return outcome(
    calls.length > 0,
    result.content.some((p) => p.type === 'tool-approval-request'),
    result.steps[0]?.toolResults[0]?.output,
  );
}

/** The OpenAI Agents binding: a run of an agent whose scripted model calls the gated tool once. */
async function viaOpenAiAgents(s: Scenario): Promise<Decision | string> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const calls: string[] = [];
  const gated = agentsGate(restartTool(calls), {
    proposition: d.propositionId,
    action: gateAction(d, `${s.id}:agents`),
    store: d.store,
    now: () => new Date(d.at),
  });
  const result = await run(agentWith(gated, restartModel([s.act.subject ?? s.id], 'done', `${s.id}-agents`)), s.act.tool);
  return outcome(calls.length > 0, result.interruptions.length > 0, toolOutputs(result)[0]);
}

/** The LangChain binding: `createAgent` with `warrantMiddleware` and a `FakeToolCallingModel` that calls the tool once. */
async function viaLangChain(s: Scenario): Promise<Decision | string> {
  const d = await decisionStore(s);
  if (d.propositionId === undefined) return 'no_claim';
  const calls: string[] = [];
  const act = langchainTool(
    async ({ subject }: { subject: string }) => {
      calls.push(subject);
      return `done ${subject}`;
    },
    { name: 'act', description: `Run ${s.act.tool}`, schema: z.object({ subject: z.string() }) },
  );
  const middleware = warrantMiddleware({
    act: { proposition: d.propositionId, action: gateAction(d, `${s.id}:langchain`), store: d.store, now: () => new Date(d.at) },
  });
  const id = `${s.id}-langchain`;
  const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'act', args: { subject: s.act.subject ?? s.id }, id }], []] });
  const agent = createAgent({ model, tools: [act], middleware: [middleware], checkpointer: new MemorySaver() });
  const out = (await agent.invoke({ messages: [{ role: 'user', content: s.act.tool }] }, { configurable: { thread_id: id } })) as {
    messages: { getType?: () => string; content?: unknown }[];
    __interrupt__?: { value: unknown }[];
  };
  const answer = out.messages.find((m) => m.getType?.() === 'tool')?.content;
  return outcome(calls.length > 0, out.__interrupt__ !== undefined && out.__interrupt__.length > 0, answer);
}

describe('the committed set through the framework bindings', () => {
  it('MCP, the Claude Code hook, the AI SDK, the OpenAI Agents SDK and LangChain decide as the library gate', async () => {
    const seen = new Set<Decision>();
    for (const s of scenarios) {
      const library = (await decideWithLayer(s)).gate;
      const expected = (await decisionStore(s)).propositionId === undefined ? 'no_claim' : library;
      expect(await viaMcp(s), `${s.id} via MCP`).toBe(expected);
      expect(await viaClaudeHook(s), `${s.id} via the Claude Code hook`).toBe(expected);
      expect(await viaAiSdk(s), `${s.id} via the AI SDK`).toBe(expected);
      expect(await viaOpenAiAgents(s), `${s.id} via the OpenAI Agents SDK`).toBe(expected);
      expect(await viaLangChain(s), `${s.id} via LangChain`).toBe(expected);
      seen.add(library);
    }
    // Every decision occurs, so agreement is not one constant answer matched by another.
    expect([...seen].sort()).toEqual(['act', 'confirm', 'hold']);
  }, 600_000);
});
