/**
 * The one registry of every agent-callable tool: the eight `ewp_*` warrant tools, the eight memory
 * tools and the four decision tools, each with its name, title, description, zod input and output
 * schema, role and (where it holds) the deterministic flag. Every binding (MCP, AI SDK, LangChain,
 * Mastra, OpenAI Agents, ADK) lists its tools from here and runs them through `runTool` of `@ewp/tools`,
 * which checks the role given here.
 */
import { z } from 'zod/v4';
import { EWP_TOOL_CODES } from '../tool-codes.js';
import { DECISION_TOOL_SPECS } from './decision-tools.js';
import { EWP_TOOL_SPECS } from './ewp-tools.js';
import { MEMORY_TOOL_SPECS } from './memory-tools.js';
import { text, type ToolSpec } from './shared.js';

/** Every agent-callable tool by name, in `tools/list` order: warrant tools, memory tools, decision tools. Frozen. */
export const TOOL_SPECS = Object.freeze({ ...EWP_TOOL_SPECS, ...MEMORY_TOOL_SPECS, ...DECISION_TOOL_SPECS } as const);

/** A tool's name. */
export type ToolName = keyof typeof TOOL_SPECS;

// Each entry is a ToolSpec under its own name (a misspelt key or a missing field does not compile).
TOOL_SPECS satisfies { readonly [N in ToolName]: ToolSpec<N> };

/** The arguments a tool advertises (its input schema's input type); the tool's decoder accepts any JSON and refuses with codes. */
export type ToolInput<N extends ToolName> = z.input<(typeof TOOL_SPECS)[N]['input']>;
/** The result of a call that was not refused (its output schema's type). */
export type ToolOutput<N extends ToolName> = z.output<(typeof TOOL_SPECS)[N]['output']>;

/** A read tool's name (every caller has it). */
export type ReadToolName = { [N in ToolName]: (typeof TOOL_SPECS)[N]['role'] extends 'read' ? N : never }[ToolName];
/** A write tool's name (the ingest role only). */
export type IngestToolName = Exclude<ToolName, ReadToolName>;

/** Every tool name, in `tools/list` order. Frozen. */
export const TOOL_NAMES: readonly ToolName[] = Object.freeze(Object.keys(TOOL_SPECS) as ToolName[]);

/** The tools every caller gets (they never write evidence), in list order. */
export const READ_TOOL_NAMES: readonly ReadToolName[] = Object.freeze(TOOL_NAMES.filter((n): n is ReadToolName => TOOL_SPECS[n].role === 'read'));

/** The tools that write to the ledger (they need the ingest role), in list order. */
export const INGEST_TOOL_NAMES: readonly IngestToolName[] = Object.freeze(TOOL_NAMES.filter((n): n is IngestToolName => TOOL_SPECS[n].role === 'ingest'));

/** Whether `name` is one of the tools. */
export function isToolName(name: unknown): name is ToolName {
  return typeof name === 'string' && Object.hasOwn(TOOL_SPECS, name);
}

/** The tools a caller gets: the read tools, and with the ingest role the write tools too, in list order. */
export function toolNamesFor(ingest: boolean): readonly ToolName[] {
  return ingest ? TOOL_NAMES : READ_TOOL_NAMES;
}

/** What a refused call returns in every binding: `{ error: { code, message, path? } }`. */
export const refusalSchema = z.object({
  error: z.object({ code: z.enum(EWP_TOOL_CODES), message: text, path: text.optional() }),
});

/** A JSON Schema object (draft-07) with `type: "object"` at the top, as tool protocols require. */
export type ObjectJsonSchema = { type: 'object'; [key: string]: unknown };

/** JSON Schema (draft-07, which the MCP client's validator speaks) of a zod schema. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): ObjectJsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/** The JSON Schema of a tool's arguments, derived from its zod input schema (a fresh object each call). */
export function inputJsonSchema(name: ToolName): ObjectJsonSchema {
  return jsonSchemaOf(TOOL_SPECS[name].input, 'input');
}

/** The JSON Schema of a tool's result, derived from its zod output schema (a fresh object each call). */
export function outputJsonSchema(name: ToolName): ObjectJsonSchema {
  return jsonSchemaOf(TOOL_SPECS[name].output, 'output');
}
