/**
 * The evidence layer's auto-context (`@ewp/memory`) for the AI SDK (6 and 7): `memorySystemPrompt()`
 * gives the text to pass as `system`, `memoryContextMiddleware()` a language-model middleware for
 * `wrapLanguageModel` that adds it to every call as a system message. Both render with
 * `agentContextText`, the one rendering every binding shares: the memories recalled for the user's
 * message, then "hot" and "confirmed" as separately labelled parts, a disputed memory marked disputed
 * and a hypothesis a hypothesis.
 */
import { InvalidArgumentError } from '@ewp/core';
import { agentContext, agentContextText, type MemoryLedger, type MemorySource, memoryLedgerOf } from '@ewp/memory';

/** Where the memories are: a `MemoryLedger`, or an `EvidenceStore` (its shared ledger, `memoryLedgerFor`). */
export type { MemorySource };

/** What the memory context of one turn is made from. */
export type MemoryContextOptions = MemorySource & {
  /** Project scope of the memories. Default: global memories. */
  project?: string | null;
  /** Rows of the hot and confirmed parts. Default: the ledger's `hot_k`. */
  limit?: number;
  /** Memories recalled for the query. Default 5. */
  recallLimit?: number;
  /** T of confidence and warrant. Default: the ledger's clock. */
  now?: () => Date;
};

/** Options of {@link memorySystemPrompt}. */
export type MemorySystemPromptOptions = MemoryContextOptions & {
  /** The user's message: the memories recalled for it are shown first. */
  query?: string;
  /** Your own system prompt; the memory context follows it after a blank line. */
  system?: string;
  /** False: show the recalled memories without raising their salience. Default true (a recall is a recall). */
  touch?: boolean;
};

async function contextText(ledger: MemoryLedger, options: MemoryContextOptions, query: string | undefined, touch: boolean | undefined): Promise<string> {
  return agentContextText(
    await agentContext(ledger, {
      ...(query === undefined ? {} : { query }),
      project: options.project ?? null,
      ...(options.now === undefined ? {} : { at: options.now().toISOString() }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.recallLimit === undefined ? {} : { recallLimit: options.recallLimit }),
      ...(touch === undefined ? {} : { touch }),
    }),
  );
}

/**
 * The system prompt for one turn: `system` (if given), then the memory context.
 *
 * ```ts
 * const system = await memorySystemPrompt({ ledger, query: userMessage, system: 'You are the ops agent.' });
 * const result = await generateText({ model, system, prompt: userMessage });
 * ```
 * @throws InvalidArgumentError when neither a ledger nor a store is given, or `system` is not a string.
 * @throws MemoryError `EWP_REFUSE_MEMORY_INPUT` naming a bad `query`, `project` or `limit`.
 */
export async function memorySystemPrompt(options: MemorySystemPromptOptions): Promise<string> {
  const ledger = memoryLedgerOf(options);
  if (options.system !== undefined && typeof options.system !== 'string') throw new InvalidArgumentError('system', 'must be a string');
  const text = await contextText(ledger, options, options.query, options.touch);
  return options.system === undefined || options.system === '' ? text : `${options.system}\n\n${text}`;
}

/** The prompt as a middleware sees it (the same shape in AI SDK 6 and 7). */
type Prompt = { role: string; content: unknown }[];

/**
 * A language-model middleware for `wrapLanguageModel` of AI SDK 6 (a `LanguageModelV3Middleware`) and
 * AI SDK 7 (which takes v3 middleware too). Typed by shape, not by either SDK's type, so it fits both.
 */
export interface MemoryContextMiddleware {
  readonly specificationVersion: 'v3';
  /** Adds the memory context to the call's prompt as a system message. */
  transformParams<P extends { prompt: readonly unknown[] }>(options: { params: P }): Promise<P>;
}

function userText(message: { content: unknown }): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content
    .map((part: { type?: unknown; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * A language-model middleware that adds the memory context to every call as a system message, after
 * the caller's own system messages. The query is the latest user message; its memories are recalled
 * once per message: on the call where that message is the newest, and shown without recalling again
 * on the later calls of a multi-step run (after tool results).
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: memoryContextMiddleware({ ledger }) });
 * ```
 * @throws InvalidArgumentError when neither a ledger nor a store is given.
 */
export function memoryContextMiddleware(options: MemoryContextOptions): MemoryContextMiddleware {
  const ledger = memoryLedgerOf(options);
  return {
    // AI SDK 7's wrapLanguageModel accepts v3 middleware as well.
    specificationVersion: 'v3',
    async transformParams<P extends { prompt: readonly unknown[] }>({ params }: { params: P }): Promise<P> {
      const prompt = params.prompt as unknown as Prompt;
      let lastUser = -1;
      for (let i = prompt.length - 1; i >= 0; i--) {
        if (prompt[i]!.role === 'user') {
          lastUser = i;
          break;
        }
      }
      const query = lastUser < 0 ? undefined : userText(prompt[lastUser]!);
      const text = await contextText(ledger, options, query, lastUser === prompt.length - 1);
      let at = 0;
      while (at < prompt.length && prompt[at]!.role === 'system') at++;
      const next = [...prompt.slice(0, at), { role: 'system', content: text }, ...prompt.slice(at)];
      return { ...params, prompt: next as unknown as P['prompt'] };
    },
  };
}
