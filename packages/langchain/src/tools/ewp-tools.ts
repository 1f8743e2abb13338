/**
 * The EWP tool set (@ewp/tools) as LangChain tools, for `createAgent` and LangGraph's ToolNode.
 * Each tool answers with the JSON text the model reads and keeps the structured result (or the
 * refusal) as the message's artifact.
 */
import { type DynamicStructuredTool, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import {
  EWP_TOOLS,
  type EwpToolName,
  INGEST_TOOL_NAMES,
  type IngestCapability,
  inputJsonSchema,
  READ_TOOL_NAMES,
  type RefusalPayload,
  refusalPayload,
  runTool,
  type ToolContext,
  type ToolOutput,
  type ToolsetOptions,
  toolContext,
} from '@ewp/tools';
import { z } from 'zod/v4';
import { RECORDING_GATE } from '../gate/gated-call.js';

/** What an EWP LangChain tool keeps as its artifact: the tool's result, or the refusal the model read. */
export type EwpToolArtifact<N extends EwpToolName = EwpToolName> = ToolOutput<N> | RefusalPayload;

/**
 * A schema that advertises the tool's JSON Schema (derived from its zod input) but lets every
 * object through: the tool's own decoder refuses malformed arguments with EWP codes and paths,
 * where LangChain's validation would throw a parsing exception without one.
 */
function advertisedSchema(name: EwpToolName) {
  return z.looseObject({}).meta(inputJsonSchema(name));
}

function langChainTool(name: EwpToolName, context: ToolContext): DynamicStructuredTool {
  return tool(
    async (input: Record<string, unknown>, config?: ToolRunnableConfig): Promise<[string, EwpToolArtifact]> => {
      // The model's tool call id names the call: ewp_may_act records under this binding's gate with it.
      const outcome = await runTool(name, input, context, { gate: RECORDING_GATE, callId: config?.toolCall?.id });
      const result = outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
      return [JSON.stringify(result), result];
    },
    { name, description: EWP_TOOLS[name].description, schema: advertisedSchema(name), responseFormat: 'content_and_artifact' },
  ) as unknown as DynamicStructuredTool;
}

/**
 * The EWP tools as LangChain tools: the read tools always, the write tools with an ingest capability.
 *
 * @example
 * const agent = createAgent({ model, tools: ewpLangChainTools({ store }) });
 */
export function ewpLangChainTools(options: ToolsetOptions & { ingest?: boolean | IngestCapability }): DynamicStructuredTool[] {
  const context = toolContext(options);
  const names: readonly EwpToolName[] = context.ingest ? [...READ_TOOL_NAMES, ...INGEST_TOOL_NAMES] : READ_TOOL_NAMES;
  return names.map((name) => langChainTool(name, context));
}
