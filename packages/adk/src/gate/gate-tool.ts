/**
 * `gate()`: the warrant gate on one ADK tool. The gated tool keeps the inner tool's name, description and
 * declaration; each call is decided on the latest stored evidence for its claim (recorded under the
 * gate `adk` with `<invocation id>:<function-call id>`), runs the inner tool only on MAY_ACT, once per
 * call, and answers the typed refusal otherwise: ADK hands it to the model as the function response.
 */
import { checkGateOptions, type GateOptions, runGuarded } from '@ewp/tools';
import type { BaseTool, RunAsyncToolRequest } from '@google/adk';
import { WrappedTool } from '../tools/wrapped-tool.js';
import { ADK_GATE, adkCallId } from './adk-call.js';

/** A tool call's arguments as ADK hands them to tools and callbacks. */
export type AdkToolArgs = Record<string, unknown>;

class GatedTool extends WrappedTool {
  readonly #options: GateOptions<AdkToolArgs>;

  constructor(inner: BaseTool, options: GateOptions<AdkToolArgs>) {
    super(inner);
    this.#options = options;
  }

  override async runAsync(request: RunAsyncToolRequest): Promise<unknown> {
    const run = await runGuarded(this.#options, request.args, { gate: ADK_GATE, tool: this.name, callId: adkCallId(request.toolContext) }, (args) =>
      this.inner.runAsync({ ...request, args }),
    );
    return run.status === 'executed' ? run.result : run.refusal;
  }
}

/**
 * Wrap `inner` with the warrant gate. REQUIRE_CONFIRMATION is answered as a refusal (the tool does not
 * run): ask a human in your application and record the evidence, or lower the action's risk.
 *
 * @example
 * const agent = new LlmAgent({ name: 'ops', model, tools: [check, gate(restart, { store, claim: 'server01 is healthy' })] });
 * @throws {InvalidArgumentError} when the options are malformed (`checkGateOptions` of `@ewp/tools`), naming the field.
 * The gated tool throws `DecisionError` when the ledger cannot record the decision or the claim on the call (the tool does not run).
 */
export function gate(inner: BaseTool, options: GateOptions<AdkToolArgs>): BaseTool {
  checkGateOptions(options, ADK_GATE);
  return new GatedTool(inner, options);
}
