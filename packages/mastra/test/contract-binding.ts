/** The tool-contract binding of Mastra: each call is a tool call an AI SDK mock model emits, run by `Agent.generate`. */
import type { ContractOutcome, ToolBinding, ToolCaller } from '@ewp/tools/testing';
import { Agent } from '@mastra/core/agent';
import { scriptedModel } from '../../ai-sdk/test/scripted-model.js';
import { ewpTools } from '../src/tools/ewp-tools.js';

// Each call has an id of its own, as a real model's are: ewp_may_act claims a call id once.
let id = 0;
function caller(tools: ReturnType<typeof ewpTools>): ToolCaller {
  const agent = new Agent({ id: 'contract', name: 'contract', instructions: 'call tools', model: scriptedModel([]), tools });
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      // A read-only tool set has no write tools at all: the model cannot call them.
      if (!(name in tools)) return { ok: false, code: 'EWP_REFUSE_INGEST_ROLE' };
      const model = scriptedModel([{ toolCalls: [{ id: `c${++id}`, name, input: args }] }, { text: 'ok' }]);
      const result = await agent.generate('go', { model, maxSteps: 2 });
      const toolResult = result.toolResults[0];
      if (toolResult === undefined) throw new Error(`no tool result: ${JSON.stringify(result.steps[0]?.content ?? result.text)}`);
      const output = JSON.parse(JSON.stringify(toolResult.payload.result)) as { error?: { code: string } };
      return output.error === undefined ? { ok: true, value: output } : { ok: false, code: output.error.code };
    },
  };
}

/** `ewpTools()` run by a Mastra `Agent` with an AI SDK mock model, over the suite's store. */
export const mastraContractBinding: ToolBinding = {
  name: 'mastra Agent.generate',
  open: async ({ now, store }) => ({
    ingest: caller(ewpTools({ store, ingest: true, now })),
    reader: caller(ewpTools({ store, now })),
    close: async () => undefined,
  }),
};
