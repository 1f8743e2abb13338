/** The tool-contract binding of the OpenAI Agents SDK: each call is a function call a `ScriptedModel` emits, run by `run()`. */
import type { ContractOutcome, ToolBinding, ToolCaller } from '@ewp/tools/testing';
import { Agent, type RunToolCallOutputItem, run, setTracingDisabled } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { type EwpAgentTool, ewpTools } from '../src/tools/ewp-tools.js';

setTracingDisabled(true);

let id = 0;
function caller(tools: EwpAgentTool[]): ToolCaller {
  const names = new Set(tools.map((t) => t.name));
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      // A read-only tool set has no write tools at all: the model cannot call them.
      if (!names.has(name)) return { ok: false, code: 'EWP_REFUSE_INGEST_ROLE' };
      const model = new ScriptedModel([[functionCall(name, args, { callId: `c${++id}` })], [assistantMessage('ok')]]);
      const result = await run(new Agent({ name: 'contract', model, tools }), 'go');
      const output = result.newItems.find((i): i is RunToolCallOutputItem => i.type === 'tool_call_output_item');
      if (output === undefined) throw new Error(`no tool output: ${JSON.stringify(result.newItems)}`);
      const value = JSON.parse(JSON.stringify(output.output)) as { error?: { code: string } };
      return value.error === undefined ? { ok: true, value } : { ok: false, code: value.error.code };
    },
  };
}

/** `ewpTools()` run by the Agents SDK runner with its scripted model, over the suite's store. */
export const openAiAgentsContractBinding: ToolBinding = {
  name: 'openai-agents run',
  open: async ({ now, store }) => ({
    ingest: caller(ewpTools({ store, ingest: true, now })),
    reader: caller(ewpTools({ store, now })),
    close: async () => undefined,
  }),
};
