/**
 * `observe()`: a tool whose results are evidence. Each result is recorded as an observation for or
 * against a claim, its source the tool (`tool:<name>`, bound here, never named by the model), in the
 * store a `gate()` on the same claim reads.
 */
import { checkObserveOptions, type ObserveOptions, observeResult } from '@ewp/tools';
import { checkedExecute, checkedName, type NamedTool } from './named-tool.js';

/** Options of {@link observe}: the shared `observe` options, and the tool's name (AI SDK tools carry none). */
export type AiObserveOptions<INPUT, OUTPUT> = ObserveOptions<INPUT, OUTPUT> & NamedTool;

/** An AI SDK tool (6 or 7) as `observe` reads it: anything with an `execute`. */
export type ExecutableTool = {
  /** The tool's own execute, called with the SDK's input and call options. */
  // biome-ignore lint/suspicious/noExplicitAny: any tool's execute, whatever its input and call options.
  execute?: ((input: any, options: any) => unknown) | undefined;
};

type ExecuteOf<T extends ExecutableTool> = NonNullable<T['execute']>;
/** The input of a tool's `execute`. */
export type ToolInputOf<T extends ExecutableTool> = Parameters<ExecuteOf<T>>[0];
/** The result of a tool's `execute` (the last one, for a tool that streams results). */
export type ToolResultOf<T extends ExecutableTool> = ResultOf<ReturnType<ExecuteOf<T>>>;
// Distributes over `AsyncIterable<O> | PromiseLike<O> | O`, the SDK's execute result.
type ResultOf<R> = R extends AsyncIterable<infer O> ? O : Awaited<R>;

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * The same tool (description, schemas, approval; AI SDK 6 or 7), whose `execute` runs the inner one and then records
 * its result with `recordObservation` of `@ewp/tools`: on `options.claim` (or the claim it maps the
 * input and result to), supporting it when `supports(result, input)` is `true`, refuting it when
 * `false`, nothing when `undefined`. The result is returned unchanged. A tool that streams results
 * (an async iterable) has its last result recorded.
 *
 * @example
 * const tools = {
 *   health_check: observe(healthCheck, { name: 'health_check', claim: 'server01 is healthy', supports: (r) => r.ok, store }),
 *   restart: gate(restart, { name: 'restart', claim: 'server01 is healthy', store }),
 * };
 *
 * @throws {InvalidArgumentError} at wrap time: a tool without `execute`, no name, or no store, claim
 * or `supports` (the field named).
 * @throws from `execute` (the SDK reports it as the call's tool error): the inner tool's error, or the
 * recording's (`InvalidArgumentError` for a claim or `supports` answer that is malformed, the store's
 * error when it cannot write); a result is never returned unrecorded.
 */
export function observe<T extends ExecutableTool>(inner: T, options: AiObserveOptions<ToolInputOf<T>, ToolResultOf<T>>): T {
  type INPUT = ToolInputOf<T>;
  type OUTPUT = ToolResultOf<T>;
  const execute = checkedExecute(inner, 'observe') as (input: INPUT, opts: unknown) => unknown;
  const name = checkedName(options);
  checkObserveOptions(options);
  const observed = {
    ...inner,
    // Not async: the SDK reads a streaming tool's async iterable from the call itself, not from a promise.
    execute: (input: INPUT, opts: unknown) => {
      const result = execute(input, opts);
      if (isAsyncIterable(result)) {
        return (async function* () {
          let last: unknown;
          for await (const part of result) {
            last = part;
            yield part;
          }
          await observeResult(options, name, input, last as OUTPUT);
        })();
      }
      return Promise.resolve(result).then(async (value) => {
        await observeResult(options, name, input, value as OUTPUT);
        return value;
      });
    },
  };
  // The SDK's `tool()` is the identity: the same object shape serves AI SDK 6 and 7.
  return observed as T;
}
