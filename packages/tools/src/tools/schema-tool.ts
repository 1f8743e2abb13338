import { TOOL_SPECS, type ToolName, type ToolOutput } from '@ewp/spec/tools';
import type { z } from 'zod/v4';
import { schemaArguments, type ToolArguments } from '../tool-arguments.js';
import type { ToolContext, ToolImplementation } from '../tool-context.js';

/** A tool's arguments as its registry input schema reads them. */
export type Parsed<N extends ToolName> = z.output<(typeof TOOL_SPECS)[N]['input']>;

/**
 * A tool whose input schema is its whole argument rule (the memory and decision tools): the arguments
 * are read by the registry's schema, the first bad one refused with its JSON path, then `run` runs.
 */
export function schemaTool<N extends ToolName>(name: N, run: (args: Parsed<N>, context: ToolContext) => Promise<ToolOutput<N>>): ToolImplementation<N> {
  const schema: z.ZodType = TOOL_SPECS[name].input;
  return { run: (args: ToolArguments, context: ToolContext) => run(schemaArguments(schema, args) as Parsed<N>, context) };
}
