/**
 * The auto-context as the model reads it: one text rendering, shared by every binding that puts memory
 * into a prompt (the LangChain middleware, the AI SDK helper, the MCP `memory_auto_context` tool), so
 * the labels are written once. "Hot" and "confirmed" stay two labelled parts; a disputed memory is
 * marked disputed and a hypothesis a hypothesis wherever it appears, so no prompt can show "X is
 * disputed" as "X". With the current message as a query, the memories recalled for it come first, as a
 * third labelled part (recall feeds salience, never confidence).
 */
import { badInput } from './errors.js';
import { contextRowLabels, MEMORY_LABELS } from './memory-labels.js';
import { isDisputedMemory } from './memory-counts.js';
import type { MemoryLedger } from './memory-ledger.js';
import type { AutoContext, ContextRow } from './memory-recall.js';
import { oneLine } from './persona-file.js';

/** The memories recalled for one message, with the label the text gives them. */
export interface RecalledContext {
  label: string;
  query: string;
  rows: ContextRow[];
}

/** The auto-context with, when a query was given, the memories recalled for it. */
export interface AgentContext extends AutoContext {
  recalled: RecalledContext | null;
}

/** What {@link agentContext} takes. */
export interface AgentContextOptions {
  /** The current message (or any text): its memories are recalled and shown as their own part. */
  query?: string;
  /** Scope; absent or null: global memories. */
  project?: string | null;
  /** T for confidence and warrant. Default: the ledger's clock. */
  at?: string;
  /** Rows of the hot and confirmed parts. Default: the ledger's `hot_k`. */
  limit?: number;
  /** Rows recalled for the query. Default 5, at most 1000. */
  recallLimit?: number;
  /**
   * False: recall without raising salience (a later model call of the same turn). Default true: the
   * recall is a recall, so salience rises and the promotion gate may be asked.
   */
  touch?: boolean;
}

const RECALLED_LABEL = 'recalled for this message: matched by text, each with its class and confidence. Being recalled is not evidence.';
const HEADER =
  'Memory (EWP evidence layer). Salience and confidence are apart: a memory recalled often is not thereby better founded. ' +
  `State a ${MEMORY_LABELS.disputed} memory as disputed, a ${MEMORY_LABELS.hypothesis} as a hypothesis, an ${MEMORY_LABELS.inference} as a conclusion drawn, not observed.`;

function rowLine(row: ContextRow): string {
  const labels = contextRowLabels(row);
  const conflict = row.conflict === 'NONE' ? '' : ` · conflict ${row.conflict}`;
  return `- ${labels.length === 0 ? '' : `${labels.join(' ')} `}${oneLine(row.text)} (${row.class} · confidence ${row.confidence} · warrant ${row.acceptance}${conflict} · mem:${row.hash})`;
}

function part(label: string, rows: readonly ContextRow[]): string {
  return `## ${label}\n${rows.length === 0 ? '- (none)' : rows.map(rowLine).join('\n')}`;
}

/**
 * The context as text for a system prompt: a header that says how to speak of each label, then the
 * recalled part (if any), the hot part and the confirmed part, each under its own label.
 */
export function agentContextText(context: AutoContext & { recalled?: RecalledContext | null }): string {
  const scope = context.project === null ? '' : ` Project ${context.project}.`;
  const parts = [`${HEADER}\nEvaluated at ${context.evaluated_at}.${scope}`];
  if (context.recalled) parts.push(part(context.recalled.label, context.recalled.rows));
  parts.push(part(context.hot.label, context.hot.rows), part(context.confirmed.label, context.confirmed.rows));
  return parts.join('\n\n');
}

/**
 * The auto-context of `ledger` for one turn: with a `query`, the memories recalled for it first (salience
 * rises unless `touch` is false), then the ledger's hot and confirmed parts at the same T.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the field (`query`, `project`, `at`, `recallLimit`).
 */
export async function agentContext(ledger: MemoryLedger, options: AgentContextOptions = {}): Promise<AgentContext> {
  if (options.query !== undefined && typeof options.query !== 'string') throw badInput('query', 'must be a string');
  const at = options.at ?? ledger.now();
  const query = options.query?.trim() ?? '';
  let recalled: RecalledContext | null = null;
  if (query !== '') {
    const rows = await ledger.recall({
      query,
      project: options.project ?? null,
      at,
      limit: options.recallLimit ?? 5,
      ...(options.touch === undefined ? {} : { touch: options.touch }),
    });
    const shown: ContextRow[] = [];
    for (const row of rows) {
      const state = await ledger.show(row.hash, at);
      shown.push({
        hash: row.hash,
        text: row.text,
        class: row.class,
        confidence: row.confidence,
        acceptance: state.warrant.acceptance,
        conflict: state.warrant.conflict,
        disputed: isDisputedMemory(state),
        salience: row.salience,
      });
    }
    recalled = { label: RECALLED_LABEL, query, rows: shown };
  }
  const context = await ledger.autoContext({ project: options.project ?? null, at, ...(options.limit === undefined ? {} : { limit: options.limit }) });
  return { ...context, recalled };
}
