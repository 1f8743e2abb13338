/**
 * How the arguments of the `memory_store` and `memory_recall` tools become a `MemoryLedger` call: one
 * mapping, shared by every binding that offers the tools (the registry's tools through `runTool`, the
 * MCP REST routes, the LangChain tools), so a store or a recall means the same through each of them.
 *
 * Two shapes of the same arguments: the registry's (`TOOL_SPECS.memory_store.input`, for a caller that
 * names the project: MCP, REST, every tool set), and {@link AGENT_MEMORY_TOOL_ARGUMENTS} for tools handed
 * to a model inside an application, where the developer fixes the project too.
 *
 * The source of a memory is never an argument's free choice: it is the writer ({@link MemoryWriter},
 * the principal a token or the operator names), and an argument `source` is only a sub-source the
 * operator allowed that principal (`principal/source`). A writer that could name a new source for
 * each paraphrase of its own conclusion could make it look independently observed.
 */
import type { EpistemicClass, RecallQuery, StoreMemoryInput } from '@ewp/memory';
import { TOOL_SPECS } from '@ewp/spec/tools';
import { z } from 'zod/v4';
import { ToolRefusal } from './refusal.js';

const memoryStore = TOOL_SPECS.memory_store.input;
const memoryRecall = TOOL_SPECS.memory_recall.input;

/**
 * `memory_store`'s and `memory_recall`'s arguments for a model inside an application, derived from the
 * registry's (`TOOL_SPECS` of `@ewp/spec/tools`): project and source are fixed by the developer
 * ({@link MemoryArgumentScope}), T is the ledger's clock, and a recall page holds at most 100 rows
 * (what a prompt can hold; `cursor` goes on as in the registry's).
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

/** The epistemic classes that claim something was observed: only an observer may write them. */
const OBSERVED: ReadonlySet<EpistemicClass> = new Set<EpistemicClass>(['observation', 'evidence']);

/**
 * Who writes a memory through an agent-facing surface, as the operator configured it: the principal
 * a token is bound to over HTTP, the one the server was started for over stdio, the one a developer
 * gives a framework binding in code. Never taken from a call's arguments.
 */
export interface MemoryWriter {
  /** The principal: the source of every memory it writes. */
  principal: string;
  /**
   * The operator's observer grant. `self: true`: the principal may write `observation` and `evidence`
   * under its own name; `sources`: sub-source names it may give as `source` (stored as
   * `principal/source`), under which it may write observations too (a tool, a sensor, an import).
   * Absent: everything the principal writes is its own `inference` or `hypothesis`.
   */
  observer?: { self?: boolean; sources?: readonly string[] } | undefined;
}

/** How the operator grants what a refusal asks for: the flag of `ewp serve` (other bindings name their option in docs). */
function grantHint(principal: string, source?: string): string {
  return `the operator allows it with --observer ${principal}${source === undefined ? '' : `=${source}`}`;
}

/**
 * The source of a memory `writer` stores with these arguments: the principal, or `principal/source`
 * for a sub-source the operator allowed it. An observation or evidence needs the observer grant (for
 * the principal itself, or for the named sub-source); without it the write is refused, not
 * downgraded: the caller said it observed something, and storing that as an inference would change
 * what it said without telling it.
 * @throws {ToolRefusal} `EWP_REFUSE_SOURCE_NOT_ALLOWED` at `$.source`, `EWP_REFUSE_CLASS_NOT_ALLOWED` at `classPath`
 */
export function writerSource(
  args: { epistemic_class: EpistemicClass; source?: string | undefined },
  writer: MemoryWriter,
  classPath = '$.epistemic_class',
): string {
  const grant = writer.observer;
  const sub = args.source;
  if (sub !== undefined && !(grant?.sources ?? []).includes(sub)) {
    throw new ToolRefusal(
      'EWP_REFUSE_SOURCE_NOT_ALLOWED',
      `principal ${JSON.stringify(writer.principal)} may not name source ${JSON.stringify(sub)}: a memory's source is its writer; omit source, or ${grantHint(writer.principal, sub)}`,
      { path: '$.source' },
    );
  }
  if (OBSERVED.has(args.epistemic_class) && sub === undefined && grant?.self !== true) {
    throw new ToolRefusal(
      'EWP_REFUSE_CLASS_NOT_ALLOWED',
      `class ${args.epistemic_class}: principal ${JSON.stringify(writer.principal)} is not an observer, so what it writes is its own inference or hypothesis; ` +
        `store it as one, or ${grantHint(writer.principal)}${(grant?.sources?.length ?? 0) > 0 ? ` (or name one of its sources: ${(grant?.sources ?? []).join(', ')})` : ''}`,
      { path: classPath },
    );
  }
  return sub === undefined ? writer.principal : `${writer.principal}/${sub}`;
}

/**
 * `memory_store`'s arguments as `MemoryLedger.store`'s input for `writer`: its source bound by
 * {@link writerSource}, the project as the arguments or `scope` name it.
 * @throws {ToolRefusal} as {@link writerSource}
 */
export function memoryWriteInput(
  args: MemoryStoreArguments,
  writer: MemoryWriter,
  scope: Pick<MemoryArgumentScope, 'project'> = {},
  classPath?: string,
): StoreMemoryInput {
  const source = writerSource(args, writer, classPath);
  const { source: _named, ...rest } = args;
  return memoryStoreInput(rest, { ...scope, source });
}
