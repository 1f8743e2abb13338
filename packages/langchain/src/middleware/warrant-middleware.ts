/**
 * `warrantMiddleware()`: the warrant gate as LangChain v1 agent middleware (`createAgent({ middleware })`),
 * wrapping every call of the gated tools with `wrapToolCall`. The tools stay as they are. MAY_ACT runs
 * the call; REQUIRE_CONFIRMATION pauses the graph with `interrupt` (the agent needs a checkpointer)
 * and runs it only when resumed with an approval; DENY answers the model with the typed refusal as
 * the tool's message. The gate and its interrupt are `gate()`'s (one gated call).
 */
import { InvalidArgumentError } from '@ewp/core';
import { checkGateOptions, type GateOptions } from '@ewp/tools';
import { ToolMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { gatedCall, LANGCHAIN_GATE } from '../gate/gated-call.js';

/** Tool name → the gate's options for that tool's calls (the input is the call's arguments). */
export type WarrantGates = { readonly [toolName: string]: GateOptions<Record<string, unknown>> };

/**
 * Agent middleware that gates the calls of the tools named in `gates`; calls of other tools pass.
 *
 * ```ts
 * const agent = createAgent({ model, tools: [restart, check], checkpointer: new MemorySaver(),
 *   middleware: [warrantMiddleware({ restart: { store, claim: 'server01 is healthy', action: { risk: 'high' } } })] });
 * ```
 * @throws {InvalidArgumentError} when `gates` is not an object or an entry's options are malformed (`gates.<tool>.<field>`).
 */
export function warrantMiddleware(gates: WarrantGates) {
  if (typeof gates !== 'object' || gates === null) throw new InvalidArgumentError('gates', 'an object of tool name to gate options is required');
  for (const [name, options] of Object.entries(gates)) checkGateOptions(options, LANGCHAIN_GATE, `gates.${name}`);
  return createMiddleware({
    name: 'EwpWarrantGate',
    wrapToolCall: async (request, handler) => {
      const { name, args, id } = request.toolCall;
      const options = Object.hasOwn(gates, name) ? gates[name] : undefined;
      if (options === undefined) return handler(request);
      return gatedCall(
        options,
        { tool: name, callId: id },
        args,
        async () => handler(request),
        (refusal) => new ToolMessage({ content: JSON.stringify(refusal), tool_call_id: id ?? '', name, status: 'error' }),
      );
    },
  });
}
