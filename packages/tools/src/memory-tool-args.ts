/**
 * The arguments of the `memory_store` and `memory_recall` tools, and how they become a `MemoryLedger`
 * call: one zod schema per tool and one mapping, shared by every binding that offers the tools (the
 * MCP server and its REST routes, the LangChain tools), so a store or a recall means the same through
 * each of them. Read arguments with `parseToolArguments`, which refuses the first bad one with its path.
 *
 * Two shapes of the same arguments: {@link MEMORY_TOOL_ARGUMENTS} for a server whose caller names the
 * project and source (MCP, REST), and {@link AGENT_MEMORY_TOOL_ARGUMENTS} for tools handed to a model
 * inside an application, where the developer fixes both: a model that could name a new source for each
 * paraphrase of its own conclusion could make it look independently observed, which the echo check
 * exists to stop.
 */
import { EPISTEMIC_CLASSES, type RecallQuery, type StoreMemoryInput } from '@ewp/memory';
import { z } from 'zod';

const hash = z.string().min(1).describe('a memory hash (mem:<hash> in the auto-context, or hash as memory_store or memory_recall answered it)');
const epistemicClass = z.enum(EPISTEMIC_CLASSES);

/** Argument fields the memory tools share (for the tools beyond store and recall, such as MCP's `memory_evidence_*`). */
export const MEMORY_ARGUMENT_FIELDS = {
  /** A memory hash. */
  hash,
  /** One epistemic class. */
  epistemic_class: epistemicClass,
  /** A project scope, or null / absent for global memories. */
  project: z.string().min(1).nullable().optional().describe('project scope; omit for global memories. Supports never cross scopes.'),
  /** T for confidence and warrant. */
  evaluated_at: z.string().optional().describe('ISO-8601 instant T for confidence and warrant; default: the server clock'),
} as const;

const memoryStore = z.object({
  text: z.string().min(1).describe('the memory, one statement'),
  epistemic_class: epistemicClass.describe(
    'observation (read from a tool, a document, the user), evidence (an observation linked to a claim), inference (your conclusion), hypothesis (to be checked)',
  ),
  supports: z.array(hash).optional().describe('memories this one supports: only an observation or evidence may support'),
  project: MEMORY_ARGUMENT_FIELDS.project,
  source: z.string().min(1).optional().describe('where it came from (a tool, a document, the agent); default "agent"'),
  derived_from: z.array(hash).optional().describe('memories an inference or hypothesis was derived from (lineage, not support)'),
});

const memoryRecall = z.object({
  query: z.string().optional().describe('text to match; omit for the most salient memories'),
  project: MEMORY_ARGUMENT_FIELDS.project,
  class: z.union([epistemicClass, z.array(epistemicClass)]).optional(),
  confidence_min: z.number().min(0).max(100).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  evaluated_at: MEMORY_ARGUMENT_FIELDS.evaluated_at,
});

/** The arguments of `memory_store` and `memory_recall` where the caller names project and source (MCP, REST). */
export const MEMORY_TOOL_ARGUMENTS = {
  memory_store: memoryStore,
  memory_recall: memoryRecall,
} as const;

/**
 * The same arguments for a model inside an application: project and source are fixed by the developer
 * ({@link MemoryArgumentScope}), T is the ledger's clock, and a recall answers at most 100 rows (what
 * a prompt can hold).
 */
export const AGENT_MEMORY_TOOL_ARGUMENTS = {
  memory_store: memoryStore.omit({ project: true, source: true }),
  memory_recall: memoryRecall.omit({ project: true, evaluated_at: true }).extend({ limit: z.number().int().min(1).max(100).optional() }),
} as const;

/** `memory_store`'s arguments, as read by either schema. */
export type MemoryStoreArguments = z.infer<typeof memoryStore>;
/** `memory_recall`'s arguments, as read by either schema. */
export type MemoryRecallArguments = z.infer<typeof memoryRecall>;

/** What the application fixes instead of the model: the project scope and the source of writes. A fixed value wins over an argument. */
export interface MemoryArgumentScope {
  /** Project scope; `null` for global memories. */
  project?: string | null;
  /** The source writes are attributed to. */
  source?: string;
}

const present = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** `memory_store`'s arguments as `MemoryLedger.store`'s input. */
export function memoryStoreInput(args: MemoryStoreArguments, scope: MemoryArgumentScope = {}): StoreMemoryInput {
  return {
    text: args.text,
    class: args.epistemic_class,
    ...present('supports', args.supports),
    ...present('project', scope.project !== undefined ? scope.project : args.project),
    ...present('source', scope.source ?? args.source),
    ...present('derived_from', args.derived_from),
  };
}

/** `memory_recall`'s arguments as `MemoryLedger.recall`'s query (`evaluated_at` is its `at`). */
export function memoryRecallQuery(args: MemoryRecallArguments, scope: Pick<MemoryArgumentScope, 'project'> = {}): RecallQuery {
  return {
    ...present('query', args.query),
    ...present('project', scope.project !== undefined ? scope.project : args.project),
    ...present('class', args.class),
    ...present('confidence_min', args.confidence_min),
    ...present('limit', args.limit),
    ...present('at', args.evaluated_at),
  };
}
