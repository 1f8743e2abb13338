/**
 * The memory-layer tools of the MCP server (`memory_store`, `memory_recall`, `memory_auto_context`,
 * `memory_evidence_show|link|refute|audit|gates`): one zod schema per tool's arguments (its JSON Schema
 * is derived from it, as for the `ewp_*` tools), and a run function that calls the `@ewp/memory`
 * library, the same function the CLI and the REST routes call. Reads are open to every caller; writes
 * need the ingest role, checked before any argument is read. A recall may append a PROMO_GATE event
 * (an audit record of the promotion gate, never evidence), so it is a read for the role check.
 * A stored memory's source is the writer's principal (the token's, or the one a stdio server runs
 * for), never an argument's free choice: see `writerSource` of @ewp/tools.
 */
import { EwpError, FIELD_LIMITS } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { agentContext, agentContextText, type MemoryLedger, memoryLedgerFor } from '@ewp/memory';
import {
  jsonSchemaOf,
  MEMORY_ARGUMENT_FIELDS,
  MEMORY_TOOL_ARGUMENTS,
  type MemoryWriter,
  memoryRecallQuery,
  memoryWriteInput,
  parseToolArguments,
  ToolRefusal,
} from '@ewp/tools';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { EVENTS_AFTER, pageEvents } from './event-page.js';
import { RECALL_CURSOR, recallPage } from './recall-page.js';

const { hash, project, evaluated_at: at } = MEMORY_ARGUMENT_FIELDS;

/** The principal of a writer no binding named (a library caller of {@link runMemoryTool}). */
const DEFAULT_PRINCIPAL = 'agent';

/** Arguments of each memory tool (`memory_store` and `memory_recall` are `@ewp/tools`' own, shared with every binding). */
export const MEMORY_TOOL_INPUTS = {
  ...MEMORY_TOOL_ARGUMENTS,
  // A recall answers a bounded page: the cursor continues it (recall-page.ts).
  memory_recall: MEMORY_TOOL_ARGUMENTS.memory_recall.extend({ cursor: RECALL_CURSOR }),
  memory_auto_context: z.object({
    query: z.string().max(FIELD_LIMITS.text).optional().describe('the current message: the memories recalled for it are shown first, as their own part'),
    project,
    limit: z.number().int().min(0).max(1000).optional(),
    evaluated_at: at,
  }),
  memory_evidence_show: z.object({ hash, evaluated_at: at, events_after: EVENTS_AFTER }),
  memory_evidence_link: z.object({ support: hash, target: hash }),
  memory_evidence_refute: z.object({ refuter: hash, target: hash }),
  memory_evidence_audit: z.object({ hash: hash.optional(), events_after: EVENTS_AFTER }),
  memory_evidence_gates: z.object({ from: z.string().max(FIELD_LIMITS.kind).optional(), to: z.string().max(FIELD_LIMITS.kind).optional() }),
} as const;

/** A memory tool's name. */
export type MemoryToolName = keyof typeof MEMORY_TOOL_INPUTS;

interface MemoryTool<N extends MemoryToolName> {
  title: string;
  description: string;
  writes: boolean;
  run(memory: MemoryLedger, args: z.infer<(typeof MEMORY_TOOL_INPUTS)[N]>, writer: MemoryWriter): Promise<unknown>;
}

const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** The memory tools, in `tools/list` order. */
export const MEMORY_TOOLS: { [N in MemoryToolName]: MemoryTool<N> } = {
  memory_store: {
    title: 'Store a memory with its epistemic class',
    description:
      'Store a memory as evidence records with its class (observation, evidence, inference, hypothesis); with supports, link it as support of ' +
      'those memories (only observations and evidence may support; an inference or hypothesis as support is refused). Its source is your principal ' +
      "(who the server knows you as), never an argument: observation and evidence need the operator's observer grant, anything else you conclude is " +
      'an inference or hypothesis. Answers hash, class, source and confidence.',
    writes: true,
    run: (m, a, writer) => m.store(memoryWriteInput(a, writer)),
  },
  memory_recall: {
    title: 'Recall memories with class and confidence',
    description:
      'Recall memories by text (or the most salient). Every row has class and confidence (0-100 from independent observations, never from recall). ' +
      'Recall makes a memory hot, not better founded: present an inference or hypothesis as such. ' +
      'A page holds at most limit rows and 64 KiB (a longer row is shortened, truncated: true); next_cursor, passed as cursor, gives the next page.',
    writes: false,
    run: (m, a) => recallPage(m, memoryRecallQuery(a), a.cursor),
  },
  memory_auto_context: {
    title: 'Context before a turn: hot and confirmed apart',
    description:
      'The memories to keep in mind before a turn, in two labelled parts: "hot" (most salient, each with class and confidence: not evidence) and ' +
      '"confirmed" (warrant ACCEPTED or confidence at or above the threshold); with a query, the memories recalled for it first. ' +
      '`text` is the whole context as prompt text, every label included. Never present a hot memory as confirmed.',
    writes: false,
    run: async (m, a) => {
      const context = await agentContext(m, { ...opt('query', a.query), ...opt('project', a.project), ...opt('limit', a.limit), ...opt('at', a.evaluated_at) });
      return { ...context, text: agentContextText(context) };
    },
  },
  memory_evidence_show: {
    title: "A memory's evidence",
    description:
      "A memory's class, confidence and the counts behind it (supports, refutations, distinct sources, first/last seen) beside its warrant, its salience and its events " +
      '(a page of them, oldest first: events_total counts them all, events_next_cursor passed as events_after gives the next).',
    writes: false,
    run: async (m, a) => pageEvents(await m.show(a.hash, a.evaluated_at), a.events_after),
  },
  memory_evidence_link: {
    title: 'Link an observation as support',
    description: 'Link an observation (or evidence) as support of a memory. A near copy from the same source is an echo: recorded, but it adds no source.',
    writes: true,
    run: (m, a) => m.link(a.support, a.target),
  },
  memory_evidence_refute: {
    title: 'Link an observation as refutation',
    description: 'Link an observation (or evidence) as refutation of a memory: confidence falls, the warrant shows the conflict.',
    writes: true,
    run: (m, a) => m.refute(a.refuter, a.target),
  },
  memory_evidence_audit: {
    title: 'Audit the memory events',
    description:
      "Verify the ledger's hash chain (memory events included) and list a memory's events, or every memory event, a page at a time " +
      '(events_total counts them all, events_next_cursor passed as events_after gives the next).',
    writes: false,
    run: async (m, a) => pageEvents(await m.audit(a.hash), a.events_after),
  },
  memory_evidence_gates: {
    title: 'Promotion gate statistics',
    description: 'Promotions allowed and blocked by the promotion gate, by reason, read from the chain (optionally between from and to).',
    writes: false,
    run: (m, a) => m.gateStats({ ...opt('from', a.from), ...opt('to', a.to) }),
  },
};

/** The memory tool names, in `tools/list` order. */
export const MEMORY_TOOL_NAMES = Object.keys(MEMORY_TOOLS) as MemoryToolName[];

/** Whether `name` is a memory tool. */
export function isMemoryToolName(name: unknown): name is MemoryToolName {
  return typeof name === 'string' && Object.hasOwn(MEMORY_TOOLS, name);
}

/** Read a tool's arguments by its schema, refusing the first bad one with its path (`parseToolArguments` of @ewp/tools). */
export function memoryToolArguments<N extends MemoryToolName>(name: N, raw: unknown): z.infer<(typeof MEMORY_TOOL_INPUTS)[N]> {
  return parseToolArguments(MEMORY_TOOL_INPUTS[name], raw) as z.infer<(typeof MEMORY_TOOL_INPUTS)[N]>;
}

/**
 * Run one memory tool: the role first, then the arguments, then the library. Refusals (every
 * `EwpError`) come back as `{ ok: false }`; anything else is a defect and is thrown.
 */
export async function runMemoryTool(
  name: MemoryToolName,
  raw: unknown,
  context: { store: EvidenceStore; ingest: boolean; now: () => Date; writer?: MemoryWriter | undefined },
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; refusal: EwpError }> {
  const tool = MEMORY_TOOLS[name] as MemoryTool<MemoryToolName>;
  try {
    if (tool.writes && !context.ingest) throw new ToolRefusal('EWP_REFUSE_INGEST_ROLE', `${name} writes to the ledger and needs the ingest role`);
    const args = memoryToolArguments(name, raw);
    const writer = context.writer ?? { principal: DEFAULT_PRINCIPAL };
    return { ok: true, value: (await tool.run(memoryLedgerFor(context.store, context.now), args as never, writer)) as Record<string, unknown> };
  } catch (error) {
    if (EwpError.isInstance(error)) return { ok: false, refusal: error };
    throw error;
  }
}

/** The `tools/list` entries of the memory tools (their input JSON Schema derived from the zod schema, as for the ewp_* tools). */
export function memoryToolList(): Tool[] {
  return MEMORY_TOOL_NAMES.map((name) => {
    const tool = MEMORY_TOOLS[name] as MemoryTool<MemoryToolName>;
    return {
      name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(MEMORY_TOOL_INPUTS[name], 'input'),
      // The library's result objects; the fields are documented with the library (@ewp/memory).
      outputSchema: jsonSchemaOf(z.looseObject({}), 'output'),
      annotations: { title: tool.title, readOnlyHint: !tool.writes, destructiveHint: false, idempotentHint: !tool.writes, openWorldHint: false },
    };
  });
}
