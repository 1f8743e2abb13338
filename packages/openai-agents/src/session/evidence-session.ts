/**
 * `EvidenceSession`: an Agents SDK `Session` that keeps the conversation in any other session
 * (`MemorySession`, an OpenAI Conversations or database session) and records every message turn
 * as evidence in an `EvidenceStore`, by the turn rule of `@ewp/tools`: a turn is a claim that was
 * made, never a verification of it.
 */
import { InvalidArgumentError, type Policy, REFERENCE_V2, type WarrantView } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { checkStoreOption, latestWarrant, recordTurn } from '@ewp/tools';
import { type AgentInputItem, MemorySession, type Session } from '@openai/agents-core';

/** A message item of the conversation: a turn someone said. */
type MessageItem = Extract<AgentInputItem, { role: string }>;

/** Options of {@link EvidenceSession}. */
export interface EvidenceSessionOptions {
  /** Where the evidence goes. */
  store: EvidenceStore;
  /** The session that keeps the items. Default: a new `MemorySession`. */
  session?: Session;
  /**
   * Which proposition a message asserts; `undefined` records nothing for it. Default: every
   * message asserts `chat:<sessionId>` (the transcript as one claim set). Items that are not
   * messages (tool calls, their results, reasoning) are never turns and are not recorded.
   */
  propositionOf?: (item: MessageItem, index: number, sessionId: string) => string | undefined;
  /** Clock for record times and the default evaluation time. Default `() => new Date()`. */
  now?: () => Date;
}

function isMessage(item: AgentInputItem): item is MessageItem {
  const i = item as { type?: unknown; role?: unknown };
  return (i.type === undefined || i.type === 'message') && typeof i.role === 'string';
}

/** The text of a message: its string content, or the text of its content parts. */
function messageText(item: MessageItem): string {
  const content = (item as { content: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.map((p: { text?: unknown; refusal?: unknown }) =>
      typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : undefined,
    );
    if (texts.every((t) => t !== undefined)) return texts.join('');
  }
  return JSON.stringify(content);
}

/**
 * A `Session` for `run(agent, input, { session })` that records each message turn as an assertion
 * before the wrapped session keeps it: an item visible in the history always has its evidence.
 *
 * @example
 * const session = new EvidenceSession({ store, session: new MemorySession({ sessionId: 'ops-1' }) });
 * await run(agent, 'Is server01 on Windows 2022?', { session });
 * const w = await session.warrant(); // chat:ops-1: a claim that was made (TENTATIVE at most)
 */
export class EvidenceSession implements Session {
  readonly store: EvidenceStore;
  readonly session: Session;
  readonly #propositionOf: NonNullable<EvidenceSessionOptions['propositionOf']>;
  readonly #now: () => Date;
  readonly #policy: Policy = REFERENCE_V2;

  constructor(options: EvidenceSessionOptions) {
    checkStoreOption(options);
    this.store = options.store;
    this.session = options.session ?? new MemorySession();
    this.#propositionOf = options.propositionOf ?? ((_item, _index, sessionId) => `chat:${sessionId}`);
    this.#now = options.now ?? (() => new Date());
  }

  getSessionId(): Promise<string> {
    return this.session.getSessionId();
  }

  getItems(limit?: number): Promise<AgentInputItem[]> {
    return this.session.getItems(limit);
  }

  /** Record each message's assertion, then hand the items to the wrapped session (a failed write keeps nothing). */
  async addItems(items: AgentInputItem[]): Promise<void> {
    const sessionId = await this.getSessionId();
    const start = (await this.session.getItems()).length;
    for (const [offset, item] of items.entries()) {
      if (!isMessage(item)) continue;
      const index = start + offset;
      const propositionId = this.#propositionOf(item, index, sessionId);
      if (propositionId === undefined) continue;
      await recordTurn(this.store, {
        sessionId,
        locatorScheme: 'openai-agents:session',
        index,
        role: item.role,
        text: messageText(item),
        messageId: typeof item.id === 'string' ? item.id : undefined,
        propositionId,
        at: this.#now(),
      });
    }
    await this.session.addItems(items);
  }

  /** Removes the latest item from the wrapped session. The ledger is append-only: the turn was said and stays recorded. */
  popItem(): Promise<AgentInputItem | undefined> {
    return this.session.popItem();
  }

  /** Clears the wrapped session; the recorded turns stay in the ledger. */
  clearSession(): Promise<void> {
    return this.session.clearSession();
  }

  /** The warrant of a proposition of this conversation (default `chat:<sessionId>`) now or at `evaluatedAt` (read-only: its lists may be shared with the store's warrant table). */
  async warrant(propositionId?: string, evaluatedAt?: string): Promise<WarrantView | undefined> {
    // Through the store's warrant table (reference-v2): no store read while T stays in a kept piece and nothing was committed.
    return latestWarrant(this.store, propositionId ?? `chat:${await this.getSessionId()}`, evaluatedAt ?? this.#now().toISOString(), this.#policy);
  }
}
