/**
 * `ewpMastraTools()`: the EWP tool set (@ewp/tools) as Mastra tools. Read tools always; write tools
 * only with an ingest capability. Each tool advertises its @ewp/tools JSON Schema and its own decoder
 * reads the arguments, so a malformed call gets the same EWP refusal code as through MCP.
 */
import {
  EWP_TOOLS,
  type EwpToolName,
  INGEST_TOOL_NAMES,
  type IngestToolName,
  inputJsonSchema,
  READ_TOOL_NAMES,
  type ReadToolName,
  type RefusalPayload,
  refusalPayload,
  runTool,
  type ToolContext,
  type ToolOutput,
  type ToolsetOptions,
  toolContext,
} from '@ewp/tools';
import { createTool, type Tool } from '@mastra/core/tools';
import { RECORDING_GATE, toolCallIdOf } from '../gate/warrant-gate.js';

/** Options of {@link ewpMastraTools}: the store, the ingest capability, the operator's risk policy, the clock. */
export type EwpMastraToolsOptions = ToolsetOptions;

/** One EWP tool as a Mastra tool: its result, or the refusal the model reads. */
export type EwpMastraTool<N extends EwpToolName = EwpToolName> = Tool<unknown, ToolOutput<N> | RefusalPayload>;

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
function advertised(name: EwpToolName): PassThroughSchema {
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

function mastraTool<N extends EwpToolName>(name: N, context: ToolContext): EwpMastraTool<N> {
  const built = createTool({
    id: name,
    description: EWP_TOOLS[name].description,
    inputSchema: advertised(name),
    execute: async (input: unknown, execution?: unknown): Promise<unknown> => {
      // Mastra's toolCallId names the call: ewp_may_act records under this binding's gate with it.
      const outcome = await runTool(name, input, context, { gate: RECORDING_GATE, callId: toolCallIdOf(execution) });
      return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
    },
  });
  return built as unknown as EwpMastraTool<N>;
}

/**
 * The EWP tools over an EvidenceStore, for `new Agent({ tools })`.
 *
 * @example
 * const agent = new Agent({ id: 'ops', name: 'ops', instructions: '...', model, tools: ewpMastraTools({ store }) });
 */
export function ewpMastraTools(options: EwpMastraToolsOptions & { ingest: true | object }): ReadMastraTools & IngestMastraTools;
export function ewpMastraTools(options: EwpMastraToolsOptions & { ingest?: false | undefined }): ReadMastraTools;
export function ewpMastraTools(options: EwpMastraToolsOptions): ReadMastraTools & Partial<IngestMastraTools>;
export function ewpMastraTools(options: EwpMastraToolsOptions): ReadMastraTools & Partial<IngestMastraTools> {
  const context = toolContext(options);
  const names: readonly EwpToolName[] = context.ingest ? [...READ_TOOL_NAMES, ...INGEST_TOOL_NAMES] : READ_TOOL_NAMES;
  return Object.fromEntries(names.map((name) => [name, mastraTool(name, context)])) as unknown as ReadMastraTools & Partial<IngestMastraTools>;
}
