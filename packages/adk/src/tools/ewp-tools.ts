/**
 * `ewpTools()`: the EWP tools of the registry (`@ewp/spec/tools`) as ADK tools; this file only maps
 * each onto a `BaseTool`. Read tools always; ingest tools only with the ingest role. Each declares the
 * registry's JSON Schema as the function's `parametersJsonSchema` and runs `runTool` of `@ewp/tools`:
 * malformed arguments are refused by the tool's own decoder with EWP codes and paths, the same refusal
 * as through MCP or the other bindings.
 */
import { inputJsonSchema, TOOL_SPECS, type ToolName, toolNamesFor } from '@ewp/spec/tools';
import { refusalPayload, runTool, type ToolContext, type ToolsetOptions, toolContext } from '@ewp/tools';
import { BaseTool, type RunAsyncToolRequest } from '@google/adk';
import { ADK_GATE, adkCallId } from '../gate/adk-call.js';

/** Options of {@link ewpTools}: the store, the ingest role, the operator's risk policy, the clock. */
export type EwpToolsOptions = ToolsetOptions;

/** The function declaration ADK sends the model (the `@google/genai` shape). */
type Declaration = NonNullable<ReturnType<BaseTool['_getDeclaration']>>;

/** One EWP tool as an ADK tool: its result, or the refusal the model reads. */
class EwpTool extends BaseTool {
  readonly #tool: ToolName;
  readonly #context: ToolContext;

  constructor(name: ToolName, context: ToolContext) {
    super({ name, description: TOOL_SPECS[name].description });
    this.#tool = name;
    this.#context = context;
  }

  override _getDeclaration(): Declaration {
    return { name: this.name, description: this.description, parametersJsonSchema: inputJsonSchema(this.#tool) } as Declaration;
  }

  override async runAsync(request: RunAsyncToolRequest): Promise<unknown> {
    // ADK's invocation and function-call ids name the call, as the gate composes them: ewp_may_act records under gate adk with them.
    const outcome = await runTool(this.#tool, request.args, this.#context, { gate: ADK_GATE, callId: adkCallId(request.toolContext) });
    return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
  }
}

/**
 * The EWP tools over an EvidenceStore, for `new LlmAgent({ tools })`.
 *
 * @example
 * const agent = new LlmAgent({ name: 'ops', model, instruction: '...', tools: ewpTools({ store }) });
 * @throws {InvalidArgumentError} `options.store` when no store is given.
 */
export function ewpTools(options: EwpToolsOptions): BaseTool[] {
  const context = toolContext(options);
  return toolNamesFor(context.ingest).map((name) => new EwpTool(name, context));
}
