/**
 * `observe()`: a function tool whose results are evidence. Each result is recorded as an observation
 * for or against a claim, its source the tool (`tool:<name>`, bound here, never named by the model), in
 * the store a `gate()` on the same claim reads.
 */
import { checkObserveOptions, type ObserveOptions, observeResult } from '@ewp/tools';
import { type AnyFunctionTool, callInput, checkedFunctionTool } from './gate.js';

/**
 * The same function tool (name, description, parameters, approval, guardrails), whose `invoke` runs
 * the inner one and then records its result with `recordObservation` of `@ewp/tools`: on
 * `options.claim` (or the claim it maps the parsed input and result to), supporting it when
 * `supports(result, input)` is `true` (type `RESULT` and `INPUT` as your tool's: the SDK types results `string`), refuting it when `false`, nothing when `undefined`. The result
 * is returned unchanged. A failure the tool's `errorFunction` turned into a message reaches `supports`
 * as that string: answer `undefined` for it.
 *
 * @example
 * const healthCheck = observe(health, { claim: 'server01 is healthy', supports: (r) => r.ok, store });
 * const agent = new Agent({ name: 'ops', tools: [healthCheck, gate(restart, { claim: 'server01 is healthy', store })] });
 *
 * @throws {InvalidArgumentError} at wrap time: not a function tool (`tool`), or no store, claim or
 * `supports` (the field named).
 * @throws from `invoke` (the run fails with it): the recording's error (`InvalidArgumentError` for a
 * claim or `supports` answer that is malformed, the store's error when it cannot write); a result is
 * never returned unrecorded.
 */
export function observe<T extends AnyFunctionTool, INPUT = unknown, RESULT = unknown>(inner: T, options: ObserveOptions<INPUT, RESULT>): T {
  checkedFunctionTool(inner, 'observe');
  checkObserveOptions(options);
  return {
    ...inner,
    invoke: async (context, input, details) => {
      // The SDK types every result `string`; what `execute` returned is passed on as it is.
      const result = (await inner.invoke(context, input, details)) as RESULT;
      await observeResult(options, inner.name, callInput(input) as INPUT, result);
      return result;
    },
  };
}
