/**
 * `ewpAdkTools()`: the EWP tool set (@ewp/tools) as ADK tools. Read tools always; write tools only
 * with an ingest capability. Each tool declares its @ewp/tools JSON Schema as the function's
 * `parametersJsonSchema` and runs the shared run function: malformed arguments are refused by the
 * tool's own decoder with EWP codes and paths, the same refusal as through MCP or the other bindings.
 */
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
import { BaseTool, type RunAsyncToolRequest } from '@google/adk';
import { ADK_GATE, adkCallId } from '../gate/warrant-callbacks.js';

/** Options of {@link ewpAdkTools}: the store, the ingest capability, the operator's risk policy, the clock. */
export type EwpAdkToolsOptions = ToolsetOptions;

/** The function declaration ADK sends the model (the `@google/genai` shape). */
type Declaration = NonNullable<ReturnType<BaseTool['_getDeclaration']>>;

/** One EWP tool as an ADK tool: its result, or the refusal the model reads. */
export class EwpAdkTool<N extends EwpToolName = EwpToolName> extends BaseTool {
  readonly #tool: N;
  readonly #context: ToolContext;

  /** @internal use {@link ewpAdkTools} */
  constructor(name: N, context: ToolContext) {
    super({ name, description: EWP_TOOLS[name].description });
    this.#tool = name;
    this.#context = context;
  }

  override _getDeclaration(): Declaration {
    return { name: this.name, description: this.description, parametersJsonSchema: inputJsonSchema(this.#tool) } as Declaration;
  }

  override async runAsync(request: RunAsyncToolRequest): Promise<ToolOutput<N> | RefusalPayload> {
    // ADK's invocation and function-call ids name the call, as the gate composes them: ewp_may_act records under gate adk with them.
    const outcome = await runTool(this.#tool, request.args, this.#context, { gate: ADK_GATE, callId: adkCallId(request.toolContext) });
    return outcome.ok ? outcome.value : refusalPayload(outcome.refusal);
  }
}

/**
 * The EWP tools over an EvidenceStore, for `new LlmAgent({ tools })`.
 *
 * @example
 * const agent = new LlmAgent({ name: 'ops', model, instruction: '...', tools: ewpAdkTools({ store }) });
 */
export function ewpAdkTools(options: EwpAdkToolsOptions): EwpAdkTool[] {
  const context = toolContext(options);
  const names: readonly EwpToolName[] = context.ingest ? [...READ_TOOL_NAMES, ...INGEST_TOOL_NAMES] : READ_TOOL_NAMES;
  return names.map((name) => new EwpAdkTool(name, context) as EwpAdkTool);
}
