/**
 * `observe()`: each result of an ADK tool recorded as an observation for or against a claim, with the
 * tool as its source (`tool:<name>`): the binding names the source, never the model. A gate on the same
 * claim then decides on what the tool saw.
 */
import { checkObserveOptions, type ObserveOptions, observeResult } from '@ewp/tools';
import type { BaseTool, RunAsyncToolRequest } from '@google/adk';
import type { AdkToolArgs } from '../gate/gate-tool.js';
import { WrappedTool } from '../tools/wrapped-tool.js';

class ObservedTool<RESULT> extends WrappedTool {
  readonly #options: ObserveOptions<AdkToolArgs, RESULT>;

  constructor(inner: BaseTool, options: ObserveOptions<AdkToolArgs, RESULT>) {
    super(inner);
    this.#options = options;
  }

  override async runAsync(request: RunAsyncToolRequest): Promise<unknown> {
    const result = (await this.inner.runAsync(request)) as RESULT;
    await observeResult(this.#options, this.name, request.args, result);
    return result;
  }
}

/**
 * Wrap `inner`: the same name, description and declaration; each call runs it, records its result with
 * `recordObservation` on the claim of `options` (`supports(result, args)` says for or against;
 * `undefined` records nothing) and answers the result unchanged.
 *
 * @example
 * const check = observe(healthCheck, { store, claim: 'server01 is healthy', supports: (r) => r.status === 'ok' });
 * @throws {InvalidArgumentError} at wrap time when the options are malformed (`checkObserveOptions`), naming the field.
 * The observed tool throws the typed error of a result that cannot be recorded (a malformed claim, a store failure).
 */
export function observe<RESULT = unknown>(inner: BaseTool, options: ObserveOptions<AdkToolArgs, RESULT>): BaseTool {
  checkObserveOptions(options);
  return new ObservedTool(inner, options);
}
