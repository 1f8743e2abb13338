/**
 * `observe()`: a Mastra tool whose results are evidence. Each result is recorded as an observation for
 * or against a claim, its source the tool (`tool:<id>`, bound here, never named by the model), in the
 * store a `gate()` on the same claim reads.
 */
import { checkObserveOptions, type ObserveOptions, observeResult } from '@ewp/tools';
import { type AnyMastraTool, checkedMastraTool } from './gate.js';

/** The input of a Mastra tool's `execute`. */
export type MastraToolInput<T extends AnyMastraTool> = Parameters<NonNullable<T['execute']>>[0];
/** The result of a Mastra tool's `execute`. */
export type MastraToolResult<T extends AnyMastraTool> = Awaited<ReturnType<NonNullable<T['execute']>>>;

/**
 * The same Mastra tool (id, description, schemas, approval), whose `execute` runs the inner one and
 * then records its result with `recordObservation` of `@ewp/tools`: on `options.claim` (or the claim it
 * maps the input and result to), supporting it when `supports(result, input)` is `true`, refuting it
 * when `false`, nothing when `undefined`. The result is returned unchanged. (Mastra types a result
 * `unknown` without an `outputSchema`: annotate `supports`' parameter, `(r: { ok: boolean }) => r.ok`.)
 *
 * @example
 * const tools = {
 *   health_check: observe(healthCheck, { claim: 'server01 is healthy', supports: (r: { ok: boolean }) => r.ok, store }),
 *   restart: gate(restart, { claim: 'server01 is healthy', store }),
 * };
 *
 * @throws {InvalidArgumentError} at wrap time: not a Mastra tool with an execute (`tool`), or no store,
 * claim or `supports` (the field named).
 * @throws from `execute`: the inner tool's error, or the recording's (`InvalidArgumentError` for a claim
 * or `supports` answer that is malformed, the store's error when it cannot write); a result is never
 * returned unrecorded.
 */
export function observe<T extends AnyMastraTool, RESULT = MastraToolResult<T>>(tool: T, options: ObserveOptions<MastraToolInput<T>, RESULT>): T {
  checkedMastraTool(tool, 'observe');
  checkObserveOptions(options);
  const inner = tool.execute as (input: unknown, context?: unknown) => Promise<unknown>;
  const execute = async (input: unknown, context?: unknown): Promise<unknown> => {
    const result = await inner(input, context);
    await observeResult(options, tool.id, input as MastraToolInput<T>, result as RESULT);
    return result;
  };
  // The same class and fields as the inner tool (Mastra reads them), with this execute.
  return Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as T, tool, { execute });
}
