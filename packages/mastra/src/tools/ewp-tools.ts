/**
 * `ewpTools()`: every agent-callable EWP tool (the registry of `@ewp/spec/tools`) as a Mastra tool. Read
 * tools always; write tools only with an ingest capability. This file only maps: each tool's id,
 * description and JSON Schema come from the registry, and `runTool` of `@ewp/tools` runs it (its own
 * decoder reads the arguments, so a malformed call gets the same EWP refusal code as through MCP).
 */
import { type IngestToolName, inputJsonSchema, type ReadToolName, TOOL_SPECS, type ToolName, type ToolOutput, toolNamesFor } from '@ewp/spec/tools';
import { type IngestCapability, type RefusalPayload, refusalPayload, runTool, type ToolContext, type ToolsetOptions, toolContext } from '@ewp/tools';
import { createTool, type Tool } from '@mastra/core/tools';
import { GATE, toolCallIdOf } from '../gate/gate.js';

/** Options of {@link ewpTools}: the store, the ingest capability, the operator's risk policy, the clock. */
export type EwpToolsOptions = ToolsetOptions;

/** One EWP tool as a Mastra tool: its result, or the refusal the model reads. */
export type EwpMastraTool<N extends ToolName = ToolName> = Tool<unknown, ToolOutput<N> | RefusalPayload>;

/** The tools every caller gets. */
export type ReadMastraTools = { [N in ReadToolName]: EwpMastraTool<N> };
/** The tools an ingest capability adds. */
export type IngestMastraTools = { [N in IngestToolName]: EwpMastraTool<N> };

type PassThroughSchema = Parameters<typeof createTool>[0]['inputSchema'];

/**
 * The tool's JSON Schema as a Standard Schema that accepts every value: Mastra advertises the schema
 * and validates nothing, so the tool's own decoder refuses malformed arguments with EWP codes and
 * JSON paths instead of Mastra's validation message.
 */
function advertised(name: ToolName): PassThroughSchema {
  const schema = inputJsonSchema(name);
  return {
    '~standard': {
      version: 1,
      vendor: 'ewp',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  } as unknown as PassThroughSchema;
}

function mastraTool<N extends ToolName>(name: N, context: ToolContext): EwpMastraTool<N> {
  const built = createTool({
    id: name,
    description: TOOL_SPECS[name].description,
    inputSchema: advertised(name),
    execute: async (input: unknown, execution?: unknown): Promise<unknown> => {
      // Mastra's toolCallId names the call: ewp_may_act records under this binding's gate with it.
      const outcome = await runTool(name, input, context, { gate: GATE, callId: toolCallIdOf(execution) });
      return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
    },
  });
  return built as unknown as EwpMastraTool<N>;
}

/**
 * The EWP tools over an EvidenceStore, for `new Agent({ tools })`: the read tools, and with `ingest`
 * the write tools too.
 *
 * @example
 * const agent = new Agent({ id: 'ops', name: 'ops', instructions: '...', model, tools: ewpTools({ store }) });
 * @throws {InvalidArgumentError} `options.store` when no store is given.
 */
export function ewpTools(options: EwpToolsOptions & { ingest: true | IngestCapability }): ReadMastraTools & IngestMastraTools;
export function ewpTools(options: EwpToolsOptions & { ingest?: false | undefined }): ReadMastraTools;
export function ewpTools(options: EwpToolsOptions): ReadMastraTools & Partial<IngestMastraTools>;
export function ewpTools(options: EwpToolsOptions): ReadMastraTools & Partial<IngestMastraTools> {
  const context = toolContext(options);
  return Object.fromEntries(toolNamesFor(context.ingest).map((name) => [name, mastraTool(name, context)])) as unknown as ReadMastraTools &
    Partial<IngestMastraTools>;
}
