/**
 * Every gate binding of the Node 20 lane records one scenario as the library's own guarded run does:
 * the same decision records field by field (apart from gate name and call id, which are the
 * binding's own and its framework's call id), one execution claim per call, and the outcome as it
 * happened (succeeded, or failed with the tool's error). Mastra and AI SDK 7 run the same comparison
 * in the Node 22 lane (record-path.node22.test.ts).
 */
import { warrantCallbacks } from '@ewp/adk';
import { gate as aiSdkGate } from '@ewp/ai-sdk';
import { parseToolMapping, warrantPostToolUseHook, warrantPreToolUseHook } from '@ewp/claude-code';
import { gate as langChainGate } from '@ewp/langchain';
import { warrantMiddleware } from '@ewp/langchain/middleware';
import { createEwpMcpServer, MCP_GATE } from '@ewp/mcp';
import { gate as agentsGate } from '@ewp/openai-agents';
import { FunctionTool, InMemoryRunner, LlmAgent } from '@google/adk';
import { tool as langchainTool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { run } from '@openai/agents-core';
import { generateText, stepCountIs, tool } from 'ai';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { functionCall, ScriptedLlm, text } from '../../adk/test/scripted-llm.js';
import { scriptedModel } from '../../ai-sdk/test/scripted-model.js';
import { agentWith, restartModel } from '../../openai-agents/test/scripted-agent.js';
import { type RecordBinding, recordPathOf, REFERENCE_BINDING, SCENARIO, SCENARIO_WIRE_ACTION } from './record-path.js';

const { proposition, action, now } = SCENARIO;
const gate = (store: Parameters<RecordBinding['run']>[0]) => ({ proposition, action, store, now, name: 'restart' });

/** The scenario's tool body: records the server, then succeeds or throws. */
function restartBody(ran: string[], fail: boolean) {
  return async ({ server }: { server: string }) => {
    ran.push(server);
    if (fail) throw new Error(SCENARIO.error);
    return `restarted ${server}`;
  };
}

const langchainRun =
  (gated: 'tool' | 'middleware'): RecordBinding['run'] =>
  async (store, fail) => {
    const ran: string[] = [];
    const restart = langchainTool(restartBody(ran, fail), { name: 'restart', description: 'Restart a server', schema: z.object({ server: z.string() }) });
    const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'restart', args: { server: SCENARIO.server }, id: 'lc-1' }], []] });
    const agent =
      gated === 'tool'
        ? createAgent({ model, tools: [langChainGate(restart, gate(store))], checkpointer: new MemorySaver() })
        : createAgent({ model, tools: [restart], middleware: [warrantMiddleware({ restart: gate(store) })], checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [{ role: 'user', content: 'restart server01' }] }, { configurable: { thread_id: `lc-${gated}` } }).catch(() => undefined);
    return { gate: 'langchain', callId: 'lc-1', ran };
  };

const BINDINGS: RecordBinding[] = [
  {
    name: 'AI SDK 6 gate',
    run: async (store, fail) => {
      const ran: string[] = [];
      const restart = tool({ description: 'Restart a server', inputSchema: z.object({ server: z.string() }), execute: restartBody(ran, fail) });
      const model = scriptedModel([{ toolCalls: [{ id: 'ai-1', name: 'restart', input: { server: SCENARIO.server } }] }, { text: 'done' }]);
      await generateText({ model, tools: { restart: aiSdkGate(restart, gate(store)) }, prompt: 'restart server01', stopWhen: stepCountIs(3) });
      return { gate: 'ai-sdk', callId: 'ai-1', ran };
    },
  },
  { name: 'LangChain gate', run: langchainRun('tool') },
  { name: 'LangChain warrantMiddleware', run: langchainRun('middleware') },
  {
    name: 'OpenAI Agents gate',
    run: async (store, fail) => {
      const ran: string[] = [];
      const restart = agentsGate(
        { name: 'restart', description: 'Restart a server', parameters: z.object({ server: z.string() }), execute: restartBody(ran, fail) },
        gate(store),
      );
      await run(agentWith(restart, restartModel([SCENARIO.server], 'done', 'oa')), 'restart server01');
      return { gate: 'openai-agents', callId: 'oa-1', ran };
    },
  },
  {
    name: 'Claude Code PreToolUse / PostToolUse hooks',
    run: async (store, fail) => {
      // Claude Code's own loop, as it runs hooks around a tool: PreToolUse, the tool if allowed, then its report.
      const ran: string[] = [];
      const mapping = parseToolMapping({ tools: [{ match: 'mcp__ops__restart', proposition, action: SCENARIO_WIRE_ACTION }] });
      const event = { tool_name: 'mcp__ops__restart', tool_input: { server: SCENARIO.server }, tool_use_id: 'toolu_1' };
      const answer = await warrantPreToolUseHook({ mapping, store, now })({ hook_event_name: 'PreToolUse', ...event });
      if ('hookSpecificOutput' in answer && answer.hookSpecificOutput.permissionDecision === 'allow') {
        const report = await restartBody(
          ran,
          fail,
        )({ server: SCENARIO.server }).then(
          (tool_response) => ({ hook_event_name: 'PostToolUse', ...event, tool_response }),
          (error: Error) => ({ hook_event_name: 'PostToolUseFailure', ...event, error: `${error.name}: ${error.message}` }),
        );
        await warrantPostToolUseHook({ mapping, store, now })(report);
      }
      return { gate: 'claude-code', callId: 'toolu_1', ran };
    },
  },
  {
    name: 'Google ADK warrantCallbacks',
    run: async (store, fail) => {
      const ran: string[] = [];
      const restart = new FunctionTool({
        name: 'restart',
        description: 'Restart a server',
        parameters: z.object({ server: z.string() }),
        execute: restartBody(ran, fail),
      });
      const callbacks = warrantCallbacks({ gates: { restart: gate(store) } });
      const model = new ScriptedLlm([functionCall('restart', { server: SCENARIO.server }, 'adk-fc-1'), text('done')]);
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model, tools: [restart], ...callbacks }), appName: 'suite' });
      const session = await runner.sessionService.createSession({ appName: 'suite', userId: 'u' });
      for await (const _ of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'restart server01' }] } })) {
        // drained: the run ends when the stream does
      }
      return { gate: 'adk', callId: /^.+:adk-fc-1$/, ran };
    },
  },
  {
    name: 'MCP ewp_may_act / ewp_decision_outcome (official SDK client)',
    run: async (store, fail) => {
      // An agent over MCP with the ingest role: it asks, acts on a claimed MAY_ACT, then reports how the action ended.
      const ran: string[] = [];
      const server = createEwpMcpServer({ store, roles: { ingest: true }, clock: now });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'record-path', version: '1.0.0' });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      try {
        const asked = await client.callTool({
          name: 'ewp_may_act',
          arguments: { proposition_id: proposition, action: SCENARIO_WIRE_ACTION, call_id: 'mcp-call-1' },
        });
        const answer = asked.structuredContent as { decision: string; decision_id: string; claimed?: boolean };
        if (answer.decision === 'MAY_ACT' && answer.claimed === true) {
          const error = await restartBody(
            ran,
            fail,
          )({ server: SCENARIO.server }).then(
            () => undefined,
            (e: Error) => `${e.name}: ${e.message}`,
          );
          const reported = await client.callTool({
            name: 'ewp_decision_outcome',
            arguments: { decision_id: answer.decision_id, ...(error === undefined ? { outcome: 'succeeded' } : { outcome: 'failed', error }) },
          });
          expect(reported.isError, JSON.stringify(reported.content)).not.toBe(true);
        }
      } finally {
        await client.close();
      }
      return { gate: MCP_GATE, callId: 'mcp-call-1', ran };
    },
  },
];

describe('every gate binding records one scenario as the library does (Node 20 lane)', () => {
  for (const fail of [false, true]) {
    describe(fail ? 'the tool throws' : 'the tool succeeds', () => {
      for (const binding of BINDINGS) {
        it(`${binding.name}: same records field by field, own gate and call id, one claim, the outcome as it happened`, async () => {
          const want = await recordPathOf(REFERENCE_BINDING, fail);
          const got = await recordPathOf(binding, fail);
          expect(want.histories).toEqual([
            {
              confirmation: false,
              execution: true,
              outcome: fail ? { status: 'failed', error: SCENARIO.error } : { status: 'succeeded', error: null },
            },
          ]);
          expect(got).toEqual(want);
        });
      }
    });
  }
});
