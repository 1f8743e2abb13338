/**
 * `gate()`: wrap any LangChain tool so the warrant of the claim it depends on decides whether it runs.
 * MAY_ACT runs it; REQUIRE_CONFIRMATION pauses the graph with LangGraph's `interrupt` for a human; DENY
 * returns a typed refusal the model reads. On resume LangGraph runs the tool again from the start, so
 * the decision is made again on the evidence of that moment: evidence that turned to DENY while the
 * graph was paused refuses even an approved call. Decisions are recorded under the gate `langchain` and
 * the tool call id, and a call executes once.
 */
import { checkGateOptions, type GateOptions } from '@ewp/tools';
import { type StructuredToolInterface, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { gatedCall, LANGCHAIN_GATE } from './gated-call.js';

/**
 * Wrap `inner` with the warrant gate. The gated tool keeps the inner name, description and schema;
 * its graph needs a checkpointer for REQUIRE_CONFIRMATION to pause and resume.
 *
 * @example
 * const restart = gate(restartTool, { store, claim: 'server01 is healthy', action: { risk: 'low' } });
 * @throws {InvalidArgumentError} when the options are malformed (`checkGateOptions` of `@ewp/tools`), naming the field.
 */
export function gate<INPUT = Record<string, unknown>>(inner: StructuredToolInterface, options: GateOptions<INPUT>): StructuredToolInterface {
  checkGateOptions(options, LANGCHAIN_GATE);
  return tool(
    (input: INPUT, config: ToolRunnableConfig): Promise<unknown> =>
      gatedCall(
        options,
        { tool: inner.name, callId: config.toolCall?.id },
        input,
        () => inner.invoke(input as never, config),
        (refusal) => JSON.stringify(refusal),
      ),
    { name: inner.name, description: inner.description, schema: inner.schema as never },
  ) as unknown as StructuredToolInterface;
}
