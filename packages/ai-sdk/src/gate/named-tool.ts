/** What `gate()` and `observe()` need of an AI SDK tool: an `execute`, and the name the model calls it by. */
import { InvalidArgumentError } from '@ewp/core';
import { isSourceName } from '@ewp/tools';

/** AI SDK tools carry no name (it is their key in `tools`): `gate()` and `observe()` are given it. */
export interface NamedTool {
  /** The tool's name, as its key in `tools`: the gate's default action id and kind, the observations' source (`tool:<name>`). */
  name: string;
}

/** The tool's name from the options. @throws {InvalidArgumentError} `options.name` when it is missing or no tool name. */
export function checkedName(options: NamedTool): string {
  const name = (options as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !isSourceName(`tool:${name}`)) {
    throw new InvalidArgumentError('options.name', "the tool's name, as its key in tools (AI SDK tools carry none): [A-Za-z0-9][A-Za-z0-9._:@+-]*");
  }
  return name;
}

/** The tool's `execute`. @throws {InvalidArgumentError} `tool.execute` when it has none. */
export function checkedExecute<F>(inner: { execute?: F } | null | undefined, what: string): F {
  const execute = inner?.execute;
  if (typeof execute !== 'function') throw new InvalidArgumentError('tool.execute', `${what}() wraps a tool with an execute function`);
  return execute;
}
