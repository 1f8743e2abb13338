/**
 * EvidenceChatMessageHistory: a chat history that keeps the conversation in any LangChain
 * history and records every message as an EWP assertion (origin `turn`, one lineage per
 * message: the turn rule of `@ewp/tools`). A conversation turn is a claim that was made, never a
 * verification of it.
 */
import { InvalidArgumentError, type Policy, REFERENCE_V2 } from '@ewp/core';
import { type Warrant, warrantOf } from '../warrant.js';
import type { EvidenceStore } from '@ewp/ledger';
import { BaseChatMessageHistory, type BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { latestWarrant, recordTurn } from '@ewp/tools';

export interface EvidenceChatMessageHistoryOptions {
  /** The history that keeps the messages (InMemoryChatMessageHistory, a Redis/Postgres history, …). */
  history: BaseChatMessageHistory | BaseListChatMessageHistory;
  /** Where the assertions go. */
  ledger: EvidenceStore;
  /** Conversation id; part of every record id and locator. */
  sessionId: string;
  /**
   * Which proposition a message asserts; `undefined` records nothing for it.
   * Default: every message asserts `chat:<sessionId>` (the transcript as one claim set).
   */
  propositionOf?: (message: BaseMessage, index: number) => string | undefined;
  /** Clock for record times and the default evaluation time. Default `() => new Date()`. */
  now?: () => Date;
}

/** The text of a message: its string content, or the text of its content blocks. */
function messageText(message: BaseMessage): string {
  if (typeof message.content === 'string') return message.content;
  const text = message.text;
  return text !== '' ? text : JSON.stringify(message.content);
}

/**
 * A `BaseChatMessageHistory` that records each added message as an assertion in an EWP ledger,
 * then stores it in the wrapped history. Usable anywhere a history is (RunnableWithMessageHistory).
 */
export class EvidenceChatMessageHistory extends BaseChatMessageHistory {
  lc_namespace = ['ewp', 'langchain', 'chat_history'];
  readonly history: BaseChatMessageHistory | BaseListChatMessageHistory;
  readonly ledger: EvidenceStore;
  readonly sessionId: string;
  readonly #propositionOf: (message: BaseMessage, index: number) => string | undefined;
  readonly #now: () => Date;
  readonly #policy: Policy = REFERENCE_V2;

  constructor(options: EvidenceChatMessageHistoryOptions) {
    super();
    if (typeof options.sessionId !== 'string' || options.sessionId === '') {
      throw new InvalidArgumentError('sessionId', 'must be a non-empty string');
    }
    this.history = options.history;
    this.ledger = options.ledger;
    this.sessionId = options.sessionId;
    this.#propositionOf = options.propositionOf ?? (() => `chat:${options.sessionId}`);
    this.#now = options.now ?? (() => new Date());
  }

  /** The default proposition of this conversation (`chat:<sessionId>`). */
  get propositionId(): string {
    return `chat:${this.sessionId}`;
  }

  getMessages(): Promise<BaseMessage[]> {
    return this.history.getMessages();
  }

  /**
   * Record the message's assertion first, then store the message: a message visible in the
   * history always has its evidence (a failed ledger write stores nothing).
   */
  async addMessage(message: BaseMessage): Promise<void> {
    const index = (await this.history.getMessages()).length;
    const pid = this.#propositionOf(message, index);
    if (pid !== undefined) await this.#record(pid, message, index);
    await this.history.addMessage(message);
  }

  override async addMessages(messages: BaseMessage[]): Promise<void> {
    for (const message of messages) await this.addMessage(message);
  }

  addUserMessage(message: string): Promise<void> {
    return this.addMessage(new HumanMessage(message));
  }

  addAIMessage(message: string): Promise<void> {
    return this.addMessage(new AIMessage(message));
  }

  /** Clears the wrapped history. The ledger is append-only: the turns were said and stay recorded. */
  clear(): Promise<void> {
    return this.history.clear();
  }

  /** The warrant of a proposition of this conversation (default `chat:<sessionId>`) now or at `evaluatedAt`. */
  async warrant(propositionId = this.propositionId, evaluatedAt?: string): Promise<Warrant | undefined> {
    // Through the store's warrant table (reference-v2): no store read while T stays in a kept piece and nothing was committed.
    const w = await latestWarrant(this.ledger, propositionId, evaluatedAt ?? this.#now().toISOString(), this.#policy);
    return w === undefined ? undefined : warrantOf(w, { cut: false, unrecorded: false });
  }

  #record(propositionId: string, message: BaseMessage, index: number): Promise<void> {
    return recordTurn(this.ledger, {
      sessionId: this.sessionId,
      locatorScheme: 'langchain:chat',
      index,
      role: message.getType(),
      text: messageText(message),
      messageId: message.id,
      propositionId,
      at: this.#now(),
    });
  }
}
