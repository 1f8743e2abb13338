/**
 * `observe()`: wrap any LangChain tool so each of its results is recorded as an observation for or
 * against a claim, with the tool as its source (`tool:<name>`): the binding names the source, never the
 * model. A gate on the same claim then decides on what the tool saw.
 */
import { checkObserveOptions, type ObserveOptions, observeResult } from '@ewp/tools';
import { type StructuredToolInterface, type ToolRunnableConfig, tool } from '@langchain/core/tools';

/**
 * Wrap `inner`: the same name, description and schema; each call runs it and records its result with
 * `recordObservation` on the claim of `options` (`supports(result, input)` says for or against;
 * `undefined` records nothing), then returns the result unchanged. The inner tool runs without the
 * call's `toolCall` in its config, so `result` is what its function returned (the content, for a
 * `content_and_artifact` tool), and the wrapper makes the call's message of it.
 *
 * @example
 * const check = observe(healthCheck, { store, claim: 'server01 is healthy', supports: (r) => r.status === 'ok' });
 * @throws {InvalidArgumentError} at wrap time when the options are malformed (`checkObserveOptions`), naming the field.
 * The wrapped tool throws the typed error of a result that cannot be recorded (a malformed claim, a store failure).
 */
export function observe<INPUT = Record<string, unknown>, RESULT = unknown>(
  inner: StructuredToolInterface,
  options: ObserveOptions<INPUT, RESULT>,
): StructuredToolInterface {
  checkObserveOptions(options);
  return tool(
    async (input: INPUT, config: ToolRunnableConfig): Promise<unknown> => {
      const { toolCall: _call, ...rest } = config ?? {};
      const result = (await inner.invoke(input as never, rest)) as RESULT;
      await observeResult(options, inner.name, input, result);
      return result;
    },
    { name: inner.name, description: inner.description, schema: inner.schema as never },
  ) as unknown as StructuredToolInterface;
}
