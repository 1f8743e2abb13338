/** The tool-contract suite through AI SDK `generateText`: a mock model emits each call. */
import { MemoryEvidenceStore } from '@ewp/ledger';
import { type ContractOutcome, runToolContract, type ToolCaller } from '@ewp/tools/testing';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { scriptedModel } from '../../test/scripted-model.js';
import { ewpTools } from './ewp-tools.js';

function caller(tools: ToolSet): ToolCaller {
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      // A read-only tool set has no write tools at all: the model cannot call them.
      if (!(name in tools)) return { ok: false, code: 'EWP_REFUSE_INGEST_ROLE' };
      const model = scriptedModel([{ toolCalls: [{ id: 'c1', name, input: args }] }, { text: 'ok' }]);
      const result = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(2) });
      const step = result.steps[0];
      const toolResult = step?.toolResults[0];
      if (toolResult === undefined) throw new Error(`no tool result: ${JSON.stringify(step?.content.find((p) => p.type === 'tool-error'))}`);
      const output = JSON.parse(JSON.stringify(toolResult.output)) as { error?: { code: string } };
      return output.error === undefined ? { ok: true, value: output } : { ok: false, code: output.error.code };
    },
  };
}

runToolContract({
  name: 'ai-sdk generateText',
  open: async ({ now }) => {
    const store = new MemoryEvidenceStore();
    return { ingest: caller(ewpTools({ store, ingest: true, now })), reader: caller(ewpTools({ store, now })), close: async () => undefined };
  },
});
