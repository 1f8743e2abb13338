/**
 * `gateLangChainTool()`: wrap any LangChain tool so the warrant of a proposition decides whether it
 * runs. MAY_ACT runs it; REQUIRE_CONFIRMATION pauses the graph with LangGraph's `interrupt` for a
 * human; DENY returns a typed refusal the model reads. On resume LangGraph runs the tool again
 * from the start, so the decision is made again on the evidence of that moment: evidence that
 * turned to DENY while the graph was paused refuses even an approved call.
 */
import { InvalidArgumentError } from '@ewp/core';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { tool } from '@langchain/core/tools';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import { interrupt } from '@langchain/langgraph';
import { decideGate, denyReason, type GateOptions, type GateRefusal, gateRefusal } from '@ewp/tools';

/** What the graph pauses with: the pending decision and the call a human is asked to confirm. */
export interface GateInterrupt extends GateRefusal {
  ewp_gate: 'REQUIRE_CONFIRMATION';
  tool: string;
  args: unknown;
}

/** What a human resumes with (`new Command({ resume })`): `true`/`false` or `{ approved }`. */
export type GateResume = boolean | { approved: boolean };

function approved(answer: unknown): boolean {
  if (answer === true) return true;
  return typeof answer === 'object' && answer !== null && (answer as { approved?: unknown }).approved === true;
}

/**
 * Wrap `inner` with the warrant gate. The gated tool keeps the inner name, description and schema;
 * its graph needs a checkpointer for REQUIRE_CONFIRMATION to pause and resume.
 */
export function gateLangChainTool<INPUT = Record<string, unknown>>(inner: StructuredToolInterface, options: GateOptions<INPUT>): StructuredToolInterface {
  if (options === null || typeof options !== 'object' || options.store === undefined) throw new InvalidArgumentError('store', 'an EvidenceStore is required');
  return tool(
    async (input: INPUT, config: ToolRunnableConfig): Promise<unknown> => {
      const d = await decideGate(options, input);
      if (d.decision === 'DENY') return JSON.stringify(gateRefusal(d, 'DENY', denyReason(d)));
      if (d.decision === 'REQUIRE_CONFIRMATION') {
        const pending: GateInterrupt = {
          ...gateRefusal(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action`),
          ewp_gate: 'REQUIRE_CONFIRMATION',
          tool: inner.name,
          args: input,
        };
        if (!approved(interrupt(pending))) {
          return JSON.stringify(gateRefusal(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action; it was not given`));
        }
      }
      return inner.invoke(input as never, config);
    },
    { name: inner.name, description: inner.description, schema: inner.schema as never },
  ) as unknown as StructuredToolInterface;
}
