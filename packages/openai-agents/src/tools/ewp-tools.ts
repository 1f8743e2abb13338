/**
 * `ewpTools()`: every agent-callable EWP tool (the registry of `@ewp/spec/tools`) as an OpenAI Agents
 * SDK function tool. Read tools always; write tools only with an ingest capability. This file only
 * maps: each tool's name, description and JSON Schema come from the registry (non-strict: the tool's own
 * decoder refuses malformed arguments with EWP codes and paths, the same refusal as through MCP), and
 * `runTool` of `@ewp/tools` runs it.
 */
import { inputJsonSchema, TOOL_SPECS, type ToolName, type ToolOutput, toolNamesFor } from '@ewp/spec/tools';
import { type RefusalPayload, refusalPayload, runTool, type ToolContext, type ToolsetOptions, toolContext } from '@ewp/tools';
import type { FunctionTool, RunContext } from '@openai/agents-core';
import { tool } from '@openai/agents-core';
import { GATE } from '../gate/gate.js';

/** Options of {@link ewpTools}: the store, the ingest capability, the operator's risk policy, the clock, the memory writer. */
export type EwpToolsOptions = ToolsetOptions;

/** A JSON Schema the SDK passes to the model as is (non-strict). */
type JsonParameters = { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: true };

/** One EWP tool as an Agents SDK function tool: its result, or the refusal the model reads. */
export type EwpAgentTool<N extends ToolName = ToolName> = FunctionTool<unknown, JsonParameters, ToolOutput<N> | RefusalPayload>;

function agentTool<N extends ToolName>(name: N, context: ToolContext): EwpAgentTool<N> {
  const built = tool({
    name,
    description: TOOL_SPECS[name].description,
    parameters: inputJsonSchema(name) as unknown as JsonParameters,
    strict: false,
    execute: async (input: unknown, _run?: RunContext, details?: { toolCall?: { callId?: string } }): Promise<ToolOutput<N> | RefusalPayload> => {
      // The model's function call id names the call: ewp_may_act records under this binding's gate with it.
      const outcome = await runTool(name, input, context, { gate: GATE, callId: details?.toolCall?.callId });
      return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
    },
  });
  return built as unknown as EwpAgentTool<N>;
}

/**
 * The EWP tools over an EvidenceStore, for `new Agent({ tools })`: the read tools, and with `ingest`
 * the write tools too.
 *
 * @example
 * const agent = new Agent({ name: 'ops', instructions: '...', tools: ewpTools({ store }) });
 * @throws {InvalidArgumentError} `options.store` when no store is given.
 */
export function ewpTools(options: EwpToolsOptions): EwpAgentTool[] {
  const context = toolContext(options);
  return toolNamesFor(context.ingest).map((name) => agentTool(name, context) as EwpAgentTool);
}
