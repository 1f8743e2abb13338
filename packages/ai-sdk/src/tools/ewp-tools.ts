/**
 * `ewpTools()`: every agent-callable EWP tool (the registry of `@ewp/spec/tools`) as an AI SDK tool.
 * Read tools always; write tools only with an ingest capability. This file only maps: each tool's name,
 * description and JSON Schema come from the registry, and `runTool` of `@ewp/tools` runs it (its own
 * decoder refuses malformed arguments with the EWP code and path, the same refusal as through MCP).
 */
import {
  type IngestToolName,
  inputJsonSchema,
  type ReadToolName,
  refusalSchema,
  TOOL_SPECS,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  toolNamesFor,
} from '@ewp/spec/tools';
import { type IngestCapability, type RefusalPayload, refusalPayload, runTool, type ToolContext, type ToolsetOptions, toolContext } from '@ewp/tools';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { jsonSchema, type Tool, tool } from 'ai';
import { z } from 'zod/v4';
import { GATE } from '../gate/gate.js';

/** Options of {@link ewpTools}: the store, the ingest capability, the operator's risk policy, the clock, the memory writer. */
export type EwpToolsOptions = ToolsetOptions;

/** One EWP tool as an AI SDK tool: its result, or the refusal the model reads. */
export type EwpAiTool<N extends ToolName> = Tool<ToolInput<N>, ToolOutput<N> | RefusalPayload>;

/** The tools every caller gets. */
export type ReadTools = { [N in ReadToolName]: EwpAiTool<N> };

/** The tools an ingest capability adds. */
export type IngestTools = { [N in IngestToolName]: EwpAiTool<N> };

function aiTool<N extends ToolName>(name: N, context: ToolContext): EwpAiTool<N> {
  const spec = TOOL_SPECS[name];
  const built: Tool<unknown, unknown> = tool<unknown, unknown>({
    description: spec.description,
    // No validator: the tool's own decoder refuses malformed arguments with EWP codes and paths.
    inputSchema: jsonSchema<unknown>(inputJsonSchema(name) as JSONSchema7),
    outputSchema: z.union([spec.output, refusalSchema]) as z.ZodType<unknown>,
    // The SDK's toolCallId names the call: ewp_may_act records under this binding's gate with it.
    execute: async (input: unknown, options?: { toolCallId?: string }): Promise<unknown> => {
      const outcome = await runTool(name, input, context, { gate: GATE, callId: options?.toolCallId });
      return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
    },
  });
  // The types say what the schemas say: the input as advertised, the result or a refusal.
  return built as unknown as EwpAiTool<N>;
}

/**
 * AI SDK tools over an EvidenceStore: the read tools, and with `ingest` the write tools too.
 *
 * @example
 * const tools = ewpTools({ store });
 * const { text } = await generateText({ model, tools, prompt: 'Is server01 on Windows 2022?' });
 * @throws {InvalidArgumentError} `options.store` when no store is given.
 */
export function ewpTools(options: EwpToolsOptions & { ingest: true | IngestCapability }): ReadTools & IngestTools;
export function ewpTools(options: EwpToolsOptions & { ingest?: false | undefined }): ReadTools;
export function ewpTools(options: EwpToolsOptions): ReadTools & Partial<IngestTools>;
export function ewpTools(options: EwpToolsOptions): ReadTools & Partial<IngestTools> {
  const context = toolContext(options);
  return Object.fromEntries(toolNamesFor(context.ingest).map((name) => [name, aiTool(name, context)])) as unknown as ReadTools & Partial<IngestTools>;
}
