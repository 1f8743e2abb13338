/**
 * `memoryTools()`: `memory_store` and `memory_recall` as LangChain tools that write and read through an
 * `@ewp/memory` ledger, so what the agent stores gets its epistemic class, the support rule and the echo
 * check, and what it recalls comes back with class and confidence. The names, descriptions and results
 * are the registry's (`TOOL_SPECS` of `@ewp/spec/tools`), the argument schemas its agent form
 * (`AGENT_MEMORY_TOOL_ARGUMENTS` of `@ewp/tools`), and the mapping onto the ledger `@ewp/tools`'
 * (`memoryWriteInput`, `memoryRecallQuery`, `recallPage`), the same the MCP tools of the same names use.
 *
 * The source of the agent's writes is the principal the developer binds in code (default `agent`),
 * never chosen by the model: a model that could name a new source for each paraphrase of its own
 * conclusion could make it look independently observed, which is what the echo check exists to stop.
 * What the model stores is its own inference or hypothesis unless the developer makes the principal an
 * observer (`observer: true`, for a model that relays what a tool or sensor read): a requested
 * observation or evidence is refused otherwise (`EWP_REFUSE_CLASS_NOT_ALLOWED`), never downgraded.
 */
import type { MemoryLedger } from '@ewp/memory';
import { EwpError, InvalidArgumentError } from '@ewp/core';
import { TOOL_SPECS } from '@ewp/spec/tools';
import { AGENT_MEMORY_TOOL_ARGUMENTS, isSourceName, type MemoryWriter, memoryRecallQuery, memoryWriteInput, recallPage } from '@ewp/tools';
import { type DynamicStructuredTool, tool } from '@langchain/core/tools';
import type { z } from 'zod/v4';
import { type MemorySource, memoryLedgerOf } from '@ewp/memory';

/** Options of {@link memoryTools}. */
export type MemoryToolsOptions = MemorySource & {
  /** Project scope of every memory the tools store and recall. Default: global memories. */
  project?: string | null;
  /** The principal the agent's writes are attributed to: the source of every memory it stores. Default `agent`. */
  principal?: string;
  /** The same as `principal` (its earlier name); `principal` wins when both are given. */
  source?: string;
  /**
   * The principal may store `observation` and `evidence` (default `false`: everything the model stores
   * is its own inference or hypothesis). Give it only to a principal whose model relays what a tool,
   * a sensor or a document said.
   */
  observer?: boolean;
  /** Offer `memory_store` (true, the default) or `memory_recall` only. */
  write?: boolean;
};

/** What a memory tool keeps as its artifact: the library's answer, or the refusal the model read. */
export type MemoryToolArtifact = Record<string, unknown> | { error: { code: string; message: string; path?: string; memory?: string } };

const STORE_INPUT = AGENT_MEMORY_TOOL_ARGUMENTS.memory_store;
const RECALL_INPUT = AGENT_MEMORY_TOOL_ARGUMENTS.memory_recall;

/** Run `work`; a refusal of the library (every EwpError) becomes the answer the model reads. */
async function answer(work: () => Promise<Record<string, unknown>>): Promise<[string, MemoryToolArtifact]> {
  try {
    const value = await work();
    return [JSON.stringify(value), value];
  } catch (error) {
    if (!EwpError.isInstance(error)) throw error;
    const memory = (error as { memory?: unknown }).memory;
    const refusal = {
      error: {
        code: error.code,
        message: error.message,
        ...(error.path === undefined ? {} : { path: error.path }),
        ...(typeof memory === 'string' ? { memory } : {}),
      },
    };
    return [JSON.stringify(refusal), refusal];
  }
}

function storeTool(ledger: MemoryLedger, project: string | null, writer: MemoryWriter): DynamicStructuredTool {
  const { name, description } = TOOL_SPECS.memory_store;
  return tool((input: z.infer<typeof STORE_INPUT>) => answer(async () => ({ ...(await ledger.store(memoryWriteInput(input, writer, { project }))) })), {
    name,
    description,
    schema: STORE_INPUT,
    responseFormat: 'content_and_artifact',
  }) as unknown as DynamicStructuredTool;
}

function recallTool(ledger: MemoryLedger, project: string | null): DynamicStructuredTool {
  const { name, description } = TOOL_SPECS.memory_recall;
  return tool(
    (input: z.infer<typeof RECALL_INPUT>) => answer(async () => ({ ...(await recallPage(ledger, memoryRecallQuery(input, { project }), input.cursor)) })),
    { name, description, schema: RECALL_INPUT, responseFormat: 'content_and_artifact' },
  ) as unknown as DynamicStructuredTool;
}

/**
 * `memory_store` and `memory_recall` over one memory ledger, for `createAgent({ tools })` or a LangGraph
 * ToolNode. Refusals of the library (an inference as support, an unknown hash) come back to the model
 * as `{ error: { code, message, path?, memory? } }`.
 *
 * ```ts
 * const agent = createAgent({ model, tools: memoryTools({ ledger, project: 'ops' }), middleware: [memoryContextMiddleware({ ledger, project: 'ops' })] });
 * ```
 * @throws InvalidArgumentError when neither a ledger nor a store is given, or `principal` (`source`) is not a name
 *   (`[A-Za-z0-9][A-Za-z0-9._:@+-]*`, no `/`, at most 128 characters).
 */
export function memoryTools(options: MemoryToolsOptions): DynamicStructuredTool[] {
  const ledger = memoryLedgerOf(options);
  const field = options.principal !== undefined ? 'principal' : 'source';
  const principal = options.principal ?? options.source ?? 'agent';
  if (typeof principal !== 'string' || !isSourceName(principal)) {
    throw new InvalidArgumentError(field, 'must be a principal name ([A-Za-z0-9][A-Za-z0-9._:@+-]*, no "/", at most 128 characters)');
  }
  const writer: MemoryWriter = options.observer === true ? { principal, observer: { self: true } } : { principal };
  const project = options.project ?? null;
  const recall = recallTool(ledger, project);
  return options.write === false ? [recall] : [storeTool(ledger, project, writer), recall];
}
