/**
 * `ewpTools()`: the EWP tool set (@ewp/tools) as AI SDK tools. Read tools always; write tools
 * only with an ingest capability. Arguments are advertised with the tools' JSON Schema and decoded
 * by the tools themselves, so a malformed call gets the same EWP refusal code as through MCP.
 */
import {
  type EwpToolName,
  type IngestCapability,
  type IngestToolName,
  INGEST_TOOL_NAMES,
  inputJsonSchema,
  outputs,
  READ_TOOL_NAMES,
  type ReadToolName,
  type RefusalPayload,
  refusalPayload,
  refusalSchema,
  runTool,
  type ToolContext,
  type ToolInput,
  type ToolOutput,
  type ToolsetOptions,
  toolContext,
  EWP_TOOLS,
} from '@ewp/tools';
import { jsonSchema, type Tool, tool } from 'ai';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { z } from 'zod/v4';
import { RECORDING_GATE } from '../gate/gate-tool.js';

/** Options of {@link ewpTools}: the store, the ingest capability, the operator's risk policy, the clock. */
export type EwpToolsOptions = ToolsetOptions;

/** One EWP tool as an AI SDK tool: its result, or the refusal the model reads. */
export type EwpAiTool<N extends EwpToolName> = Tool<ToolInput<N>, ToolOutput<N> | RefusalPayload>;

/** The tools every caller gets. */
export type ReadTools = { [N in ReadToolName]: EwpAiTool<N> };

/** The tools an ingest capability adds. */
export type IngestTools = { [N in IngestToolName]: EwpAiTool<N> };

function aiTool<N extends EwpToolName>(name: N, context: ToolContext): EwpAiTool<N> {
  // The SDK's toolCallId names the call: ewp_may_act records under this binding's gate with it.
  const execute = async (input: unknown, options?: { toolCallId?: string }): Promise<unknown> => {
    const outcome = await runTool(name, input, context, { gate: RECORDING_GATE, callId: options?.toolCallId });
    return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
  };
  const built: Tool<unknown, unknown> = tool<unknown, unknown>({
    description: EWP_TOOLS[name].description,
    // No validator: the tool's own decoder refuses malformed arguments with EWP codes and paths.
    inputSchema: jsonSchema<unknown>(inputJsonSchema(name) as JSONSchema7),
    outputSchema: z.union([outputs[name], refusalSchema]) as z.ZodType<unknown>,
    execute,
  });
  // The types say what the schemas say: the input as advertised, the result or a refusal.
  return built as unknown as EwpAiTool<N>;
}

/**
 * AI SDK 6 tools over an EvidenceStore.
 *
 * @example
 * const tools = ewpTools({ store });
 * const { text } = await generateText({ model, tools, prompt: 'Is server01 on Windows 2022?' });
 */
export function ewpTools(options: EwpToolsOptions & { ingest: true | IngestCapability }): ReadTools & IngestTools;
export function ewpTools(options: EwpToolsOptions & { ingest?: false | undefined }): ReadTools;
export function ewpTools(options: EwpToolsOptions): ReadTools & Partial<IngestTools>;
export function ewpTools(options: EwpToolsOptions): ReadTools & Partial<IngestTools> {
  const context = toolContext(options);
  const names: readonly EwpToolName[] = context.ingest ? [...READ_TOOL_NAMES, ...INGEST_TOOL_NAMES] : READ_TOOL_NAMES;
  return Object.fromEntries(names.map((name) => [name, aiTool(name, context)])) as unknown as ReadTools & Partial<IngestTools>;
}
