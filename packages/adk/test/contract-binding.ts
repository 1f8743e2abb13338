/** The tool-contract binding of Google ADK: each call is a function call a scripted model emits, run by a real InMemoryRunner. */
import type { ContractOutcome, ToolBinding, ToolCaller } from '@ewp/tools/testing';
import { getFunctionResponses, InMemoryRunner, LlmAgent } from '@google/adk';
import type { BaseTool } from '@google/adk';
import { ewpTools } from '../src/tools/ewp-tools.js';
import { functionCall, ScriptedLlm, text } from './scripted-llm.js';

let id = 0;
function caller(tools: BaseTool[]): ToolCaller {
  const names = new Set(tools.map((t) => t.name));
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      // A read-only tool set has no write tools at all: the model cannot call them.
      if (!names.has(name)) return { ok: false, code: 'EWP_REFUSE_INGEST_ROLE' };
      const model = new ScriptedLlm([functionCall(name, args as Record<string, unknown>, `c${++id}`), text('ok')]);
      const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'contract', model, tools }), appName: 'contract' });
      const session = await runner.sessionService.createSession({ appName: 'contract', userId: 'u' });
      let response: Record<string, unknown> | undefined;
      for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } })) {
        response ??= getFunctionResponses(event)[0]?.response;
      }
      if (response === undefined) throw new Error(`no function response for ${name}`);
      const value = JSON.parse(JSON.stringify(response)) as { error?: { code: string } };
      return value.error === undefined ? { ok: true, value } : { ok: false, code: value.error.code };
    },
  };
}

/** `ewpTools()` run by ADK's InMemoryRunner with a scripted model, over the suite's store. */
export const adkContractBinding: ToolBinding = {
  name: 'adk InMemoryRunner',
  open: async ({ now, store }) => ({
    ingest: caller(ewpTools({ store, ingest: true, now })),
    reader: caller(ewpTools({ store, now })),
    close: async () => undefined,
  }),
};
