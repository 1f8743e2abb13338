/**
 * `ewpAgentTools()`: the EWP tool set (@ewp/tools) as OpenAI Agents SDK function tools. Read tools
 * always; write tools only with an ingest capability. Each tool advertises its @ewp/tools JSON
 * Schema (non-strict: the tool's own decoder refuses malformed arguments with EWP codes and paths,
 * the same refusal as through MCP or the AI SDK).
 */
import type { FunctionTool, RunContext } from '@openai/agents-core';
import { tool } from '@openai/agents-core';
import {
  EWP_TOOLS,
  type EwpToolName,
  INGEST_TOOL_NAMES,
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
import { RECORDING_GATE } from '../gate/gate-agent-tool.js';

/** Options of {@link ewpAgentTools}: the store, the ingest capability, the operator's risk policy, the clock. */
export type EwpAgentToolsOptions = ToolsetOptions;

/** A JSON Schema the SDK passes to the model as is (non-strict). */
type JsonParameters = { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: true };

/** One EWP tool as an Agents SDK function tool: its result, or the refusal the model reads. */
export type EwpAgentTool<N extends EwpToolName = EwpToolName> = FunctionTool<unknown, JsonParameters, ToolOutput<N> | RefusalPayload>;

function agentTool<N extends EwpToolName>(name: N, context: ToolContext): EwpAgentTool<N> {
  const built = tool({
    name,
    description: EWP_TOOLS[name].description,
    parameters: inputJsonSchema(name) as unknown as JsonParameters,
    strict: false,
    execute: async (input: unknown, _run?: RunContext, details?: { toolCall?: { callId?: string } }): Promise<ToolOutput<N> | RefusalPayload> => {
      // The model's function call id names the call: ewp_may_act records under this binding's gate with it.
      const outcome = await runTool(name, input, context, { gate: RECORDING_GATE, callId: details?.toolCall?.callId });
      return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
    },
  });
  return built as unknown as EwpAgentTool<N>;
}

/**
 * The EWP tools over an EvidenceStore, for `new Agent({ tools })`.
 *
 * @example
 * const agent = new Agent({ name: 'ops', instructions: '...', tools: ewpAgentTools({ store }) });
 */
export function ewpAgentTools(options: EwpAgentToolsOptions): EwpAgentTool[] {
  const context = toolContext(options);
  const names: readonly EwpToolName[] = context.ingest ? [...READ_TOOL_NAMES, ...INGEST_TOOL_NAMES] : READ_TOOL_NAMES;
  return names.map((name) => agentTool(name, context) as EwpAgentTool);
}
