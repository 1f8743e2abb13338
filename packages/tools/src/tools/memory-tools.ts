/**
 * How the memory tools run (`memory_store`, `memory_recall`, `memory_auto_context`,
 * `memory_evidence_show|link|refute|audit|gates`): each reads its arguments by the registry's schema
 * and calls the `@ewp/memory` library, the same functions the CLI and the REST routes call. A recall
 * may append a PROMO_GATE event (an audit record of the promotion gate, never evidence), so it is a
 * read for the role check. A stored memory's source is the writer's principal (the context's
 * `writer`), never an argument's free choice (`writerSource`).
 */
import { agentContext, agentContextText, type MemoryLedger, memoryLedgerFor } from '@ewp/memory';
import type { ToolName, ToolOutput } from '@ewp/spec/tools';
import { type MemoryWriter, memoryRecallQuery, memoryWriteInput } from '../memory-tool-args.js';
import type { ToolImplementation } from '../tool-context.js';
import { pageEvents } from './event-page.js';
import { recallPage } from './recall-page.js';
import { type Parsed, schemaTool } from './schema-tool.js';

/** The principal of a writer no binding named (a library caller of `runTool`). */
export const DEFAULT_WRITER_PRINCIPAL = 'agent';

/** A memory tool: the store's one memory layer (its salience shared with every tool over that store) and the call's writer. */
function memoryTool<N extends ToolName>(
  name: N,
  run: (memory: MemoryLedger, args: Parsed<N>, writer: MemoryWriter) => Promise<ToolOutput<N>>,
): ToolImplementation<N> {
  return schemaTool(name, (args, context) => run(memoryLedgerFor(context.store, context.now), args, context.writer ?? { principal: DEFAULT_WRITER_PRINCIPAL }));
}

const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** The memory tools' implementations. */
export const MEMORY_TOOL_IMPLEMENTATIONS = {
  memory_store: memoryTool('memory_store', (m, a, writer) => m.store(memoryWriteInput(a, writer))),
  memory_recall: memoryTool('memory_recall', (m, a) => recallPage(m, memoryRecallQuery(a), a.cursor)),
  memory_auto_context: memoryTool('memory_auto_context', async (m, a) => {
    const context = await agentContext(m, { ...opt('query', a.query), ...opt('project', a.project), ...opt('limit', a.limit), ...opt('at', a.evaluated_at) });
    return { ...context, text: agentContextText(context) };
  }),
  memory_evidence_show: memoryTool('memory_evidence_show', async (m, a) => pageEvents(await m.show(a.hash, a.evaluated_at), a.events_after)),
  memory_evidence_link: memoryTool('memory_evidence_link', (m, a) => m.link(a.support, a.target)),
  memory_evidence_refute: memoryTool('memory_evidence_refute', (m, a) => m.refute(a.refuter, a.target)),
  memory_evidence_audit: memoryTool('memory_evidence_audit', async (m, a) => pageEvents(await m.audit(a.hash), a.events_after)),
  memory_evidence_gates: memoryTool('memory_evidence_gates', (m, a) => m.gateStats({ ...opt('from', a.from), ...opt('to', a.to) })),
} as const;
