/**
 * The EWP tool set (@ewp/tools) as LangChain tools, for `createAgent` and LangGraph's ToolNode: this
 * file only maps each tool of the registry onto a LangChain tool. Each tool answers with the JSON text
 * the model reads and keeps the structured result (or the refusal) as the message's artifact.
 */
import { inputJsonSchema, TOOL_SPECS, type ToolName, type ToolOutput, toolNamesFor } from '@ewp/spec/tools';
import { type RefusalPayload, refusalPayload, runTool, type ToolContext, type ToolsetOptions, toolContext } from '@ewp/tools';
import { type DynamicStructuredTool, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { z } from 'zod/v4';
import { LANGCHAIN_GATE } from '../gate/gated-call.js';

/** What an EWP LangChain tool keeps as its artifact: the tool's result, or the refusal the model read. */
export type EwpToolArtifact<N extends ToolName = ToolName> = ToolOutput<N> | RefusalPayload;

/** Options of {@link ewpTools}: the store, the ingest role, the operator's risk policy, the clock. */
export type EwpToolsOptions = ToolsetOptions;

/**
 * A schema that advertises the tool's JSON Schema (derived from its zod input) but lets every
 * object through: the tool's own decoder refuses malformed arguments with EWP codes and paths,
 * where LangChain's validation would throw a parsing exception without one.
 */
function advertisedSchema(name: ToolName) {
  return z.looseObject({}).meta(inputJsonSchema(name));
}

function langChainTool(name: ToolName, context: ToolContext): DynamicStructuredTool {
  return tool(
    async (input: Record<string, unknown>, config?: ToolRunnableConfig): Promise<[string, EwpToolArtifact]> => {
      // The model's tool call id names the call: ewp_may_act records under this binding's gate with it.
      const outcome = await runTool(name, input, context, { gate: LANGCHAIN_GATE, callId: config?.toolCall?.id });
      const result = outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
      return [JSON.stringify(result), result];
    },
    { name, description: TOOL_SPECS[name].description, schema: advertisedSchema(name), responseFormat: 'content_and_artifact' },
  ) as unknown as DynamicStructuredTool;
}

/**
 * The EWP tools as LangChain tools: the read tools always, the write tools with the ingest role.
 *
 * @example
 * const agent = createAgent({ model, tools: ewpTools({ store }) });
 * @throws {InvalidArgumentError} `options.store` when no store is given.
 */
export function ewpTools(options: EwpToolsOptions): DynamicStructuredTool[] {
  const context = toolContext(options);
  return toolNamesFor(context.ingest).map((name) => langChainTool(name, context));
}
