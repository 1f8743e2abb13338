/** A gated restart tool and a `ScriptedModel` that proposes calls to it, for the gate's tests and bench. */
import { Agent, type FunctionTool, type RunToolCallOutputItem, setTracingDisabled, tool } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import type { RunResult } from '@openai/agents-core';
import { z } from 'zod';

setTracingDisabled(true);

/** A tool that records every server it restarted. */
export function restartTool(calls: string[] = []) {
  return tool({
    name: 'restart',
    description: 'Restart a server',
    parameters: z.object({ server: z.string() }),
    execute: async ({ server }) => {
      calls.push(server);
      return `restarted ${server}`;
    },
  });
}

/**
 * A model that calls `restart` once per server (one turn), then answers `text`. Its call ids are
 * `<callIdPrefix>-1`, `-2`, …: a gate runs each call id once, so runs that share a ledger and stand
 * for different calls need a prefix of their own, as a real model's ids are unique.
 */
export function restartModel(servers: string[], text = 'done', callIdPrefix = 'call'): ScriptedModel {
  return new ScriptedModel([servers.map((server, i) => functionCall('restart', { server }, { callId: `${callIdPrefix}-${i + 1}` })), [assistantMessage(text)]]);
}

// biome-ignore lint/suspicious/noExplicitAny: any function tool.
export function agentWith(tool: FunctionTool<any, any, any>, model: ScriptedModel) {
  return new Agent({ name: 'ops', model, tools: [tool] });
}

/** The tool outputs of a run, in order. */
// biome-ignore lint/suspicious/noExplicitAny: any run result.
export function toolOutputs(result: RunResult<any, any>): unknown[] {
  return result.newItems.filter((i): i is RunToolCallOutputItem => i.type === 'tool_call_output_item').map((i) => i.output);
}
