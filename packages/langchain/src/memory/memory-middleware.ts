import { agentContext, agentContextText, type MemorySource, memoryLedgerOf } from '@ewp/memory';
import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';

/** Where the memories are: a `MemoryLedger`, or an `EvidenceStore` (its shared ledger, `memoryLedgerFor`). */
export type { MemorySource };

/** Options of {@link memoryContextMiddleware}. */
export type MemoryContextMiddlewareOptions = MemorySource & {
  /** Project scope of the memories. Default: global memories. */
  project?: string | null;
  /** Rows of the hot and confirmed parts. Default: the ledger's `hot_k`. */
  limit?: number;
  /** Memories recalled for the user's message. Default 5. */
  recallLimit?: number;
  /** T of confidence and warrant. Default: the ledger's clock. */
  now?: () => Date;
};

/** The ledger of `source`, or a typed refusal naming the missing field (internal to this entry). */

/** The text of a message's content (string or text blocks). */
function textOf(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('\n');
}

/** The agent's system message with the context after it; a string stays one string (what every provider takes). */
function withContext(system: SystemMessage, text: string): SystemMessage {
  if (typeof system.content !== 'string') return system.concat(`\n\n${text}`);
  const content = system.content === '' ? text : `${system.content}\n\n${text}`;
  return new SystemMessage({
    content,
    additional_kwargs: system.additional_kwargs,
    response_metadata: system.response_metadata,
    id: system.id,
    name: system.name,
  });
}

/**
 * Agent middleware that puts the memory context into the system prompt of every model call.
 *
 * The memories recalled for the latest user message are recalled once per message: the first model
 * call of a turn recalls them (salience rises; the promotion gate may be asked), later calls of the
 * same turn (after tool results) show them without recalling again.
 *
 * ```ts
 * const agent = createAgent({ model, tools: memoryTools({ ledger }), middleware: [memoryContextMiddleware({ ledger })] });
 * ```
 * @throws InvalidArgumentError when neither a ledger nor a store is given.
 */
export function memoryContextMiddleware(options: MemoryContextMiddlewareOptions) {
  const ledger = memoryLedgerOf(options);
  return createMiddleware({
    name: 'EwpMemoryContext',
    wrapModelCall: async (request, handler) => {
      const messages = request.messages;
      let lastHuman = -1;
      for (let i = messages.length - 1; i >= 0; i--) {
        if (HumanMessage.isInstance(messages[i])) {
          lastHuman = i;
          break;
        }
      }
      const context = await agentContext(ledger, {
        ...(lastHuman < 0 ? {} : { query: textOf(messages[lastHuman]!) }),
        project: options.project ?? null,
        ...(options.now === undefined ? {} : { at: options.now().toISOString() }),
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.recallLimit === undefined ? {} : { recallLimit: options.recallLimit }),
        // The user's message is the newest one only on the turn's first model call.
        touch: lastHuman === messages.length - 1,
      });
      return handler({ ...request, systemMessage: withContext(request.systemMessage, agentContextText(context)) });
    },
  });
}
