/**
 * `gateLangChainTool()`: wrap any LangChain tool so the warrant of a proposition decides whether it
 * runs. MAY_ACT runs it; REQUIRE_CONFIRMATION pauses the graph with LangGraph's `interrupt` for a
 * human; DENY returns a typed refusal the model reads. On resume LangGraph runs the tool again
 * from the start, so the decision is made again on the evidence of that moment: evidence that
 * turned to DENY while the graph was paused refuses even an approved call. Decisions are recorded
 * under the gate `langchain` and the tool call id, and a call executes once.
 */
import { InvalidArgumentError } from '@ewp/core';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { tool } from '@langchain/core/tools';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import type { GateOptions } from '@ewp/tools';
import { gatedCall } from './gated-call.js';

/**
 * Wrap `inner` with the warrant gate. The gated tool keeps the inner name, description and schema;
 * its graph needs a checkpointer for REQUIRE_CONFIRMATION to pause and resume.
 */
export function gateLangChainTool<INPUT = Record<string, unknown>>(inner: StructuredToolInterface, options: GateOptions<INPUT>): StructuredToolInterface {
  if (options === null || typeof options !== 'object' || options.store === undefined) throw new InvalidArgumentError('store', 'an EvidenceStore is required');
  return tool(
    (input: INPUT, config: ToolRunnableConfig): Promise<unknown> =>
      gatedCall(
        options,
        inner.name,
        config.toolCall?.id,
        input,
        () => inner.invoke(input as never, config),
        (refusal) => JSON.stringify(refusal),
      ),
    { name: inner.name, description: inner.description, schema: inner.schema as never },
  ) as unknown as StructuredToolInterface;
}
