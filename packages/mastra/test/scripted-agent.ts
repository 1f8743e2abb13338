/** A restart tool, a Mastra agent over an in-memory storage and a mock model that proposes calls to it. */
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool, type ToolHooks } from '@mastra/core/tools';
import { z } from 'zod';
import { scriptedModel } from '../../ai-sdk/test/scripted-model.js';

/** A tool that records every server it restarted. */
export function restartTool(calls: string[] = []) {
  return createTool({
    id: 'restart',
    description: 'Restart a server',
    inputSchema: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      calls.push(server);
      return { restarted: server };
    },
  });
}

/**
 * A model that calls `restart` once per server (one turn), then answers `text`. Its call ids are
 * `<callIdPrefix>-1`, `-2`, …: a gate runs each call id once, so runs that share a ledger and stand
 * for different calls need a prefix of their own, as a real model's ids are unique.
 */
export function restartModel(servers: string[], text = 'done', callIdPrefix = 'call') {
  return scriptedModel([{ toolCalls: servers.map((server, i) => ({ id: `${callIdPrefix}-${i + 1}`, name: 'restart', input: { server } })) }, { text }]);
}

/** An agent registered in a Mastra instance with in-memory storage (approval suspends into its snapshots). */
export function opsAgent(tools: Record<string, unknown>, model: ReturnType<typeof scriptedModel>, hooks?: ToolHooks): Agent {
  const agent = new Agent({ id: 'ops', name: 'ops', instructions: 'Operate servers.', model, tools: tools as never, ...(hooks ? { hooks } : {}) });
  const mastra = new Mastra({ agents: { ops: agent }, storage: new InMemoryStore(), logger: false });
  return mastra.getAgent('ops');
}
