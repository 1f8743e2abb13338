/** The tool-contract binding of the AI SDK: each call is a tool call a mock model emits, run by `generateText`. */
import type { ContractOutcome, ToolBinding, ToolCaller } from '@ewp/tools/testing';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { ewpTools } from '../src/tools/ewp-tools.js';
import { scriptedModel } from './scripted-model.js';

// Each call has an id of its own, as a real model's are: ewp_may_act claims a call id once.
let id = 0;
function caller(tools: ToolSet): ToolCaller {
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      // A read-only tool set has no write tools at all: the model cannot call them.
      if (!(name in tools)) return { ok: false, code: 'EWP_REFUSE_INGEST_ROLE' };
      const model = scriptedModel([{ toolCalls: [{ id: `c${++id}`, name, input: args }] }, { text: 'ok' }]);
      const result = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(2) });
      const step = result.steps[0];
      const toolResult = step?.toolResults[0];
      if (toolResult === undefined) throw new Error(`no tool result: ${JSON.stringify(step?.content.find((p) => p.type === 'tool-error'))}`);
      const output = JSON.parse(JSON.stringify(toolResult.output)) as { error?: { code: string } };
      return output.error === undefined ? { ok: true, value: output } : { ok: false, code: output.error.code };
    },
  };
}

/** `ewpTools()` through `generateText` with `MockLanguageModelV3`, over the suite's store. */
export const aiSdkContractBinding: ToolBinding = {
  name: 'ai-sdk generateText',
  open: async ({ now, store }) => ({
    ingest: caller(ewpTools({ store, ingest: true, now })),
    reader: caller(ewpTools({ store, now })),
    close: async () => undefined,
  }),
};
