/** The tool-contract binding of LangGraph: each call is an AIMessage tool call run by a ToolNode. */
import type { ContractOutcome, ToolBinding, ToolCaller } from '@ewp/tools/testing';
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { ewpTools } from '../src/tools/ewp-tools.js';

let id = 0;
function caller(tools: ReturnType<typeof ewpTools>): ToolCaller {
  const node = new ToolNode(tools, { handleToolErrors: false });
  const names = new Set(tools.map((t) => t.name));
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      // A read-only tool set has no write tools at all: the model cannot call them.
      if (!names.has(name)) return { ok: false, code: 'EWP_REFUSE_INGEST_ROLE' };
      const message = new AIMessage({ content: '', tool_calls: [{ name, args, id: `c${++id}`, type: 'tool_call' }] });
      const out = (await node.invoke({ messages: [message] })) as { messages: ToolMessage[] };
      const result = JSON.parse(String(out.messages[0]?.content)) as { error?: { code: string } };
      return result.error === undefined ? { ok: true, value: result } : { ok: false, code: result.error.code };
    },
  };
}

/** `ewpTools()` run by a LangGraph `ToolNode`, over the suite's store. */
export const langGraphContractBinding: ToolBinding = {
  name: 'langgraph ToolNode',
  open: async ({ now, store }) => ({
    ingest: caller(ewpTools({ store, ingest: true, now })),
    reader: caller(ewpTools({ store, now })),
    close: async () => undefined,
  }),
};
