/**
 * `WarrantMemoryProcessor`: a Mastra input processor that puts the warrant of what memory recalled in
 * front of the model. Each recalled message (source `memory`: message history, semantic recall) that
 * names a proposition gets its warrant axes in `content.metadata.ewp`, and one system message says
 * them out loud: recalled is not believed. With an `@ewp/memory` ledger it also adds that ledger's
 * auto-context, its "hot" (salient) and "confirmed" (warranted) memories as two labelled parts, in
 * `agentContextText`'s rendering: the one every binding shares, so a disputed memory is marked
 * `[DISPUTED]` and a hypothesis `[HYPOTHESIS]` here as in LangChain, the AI SDK and MCP.
 */
import { InvalidArgumentError, type Warrant } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { agentContextText, type MemoryLedger } from '@ewp/memory';
import { checkStoreOption, latestWarrant } from '@ewp/tools';
import type { MastraDBMessage } from '@mastra/core/agent';
import type { ProcessInputArgs, ProcessInputResultWithSystemMessages, Processor } from '@mastra/core/processors';

/** What `content.metadata.ewp` holds on a recalled message. */
export interface RecalledWarrant {
  propositionId: string;
  /** `null` when nothing is stored for the proposition (an unrecorded claim). */
  viewId: string | null;
  evaluatedAt: string;
  acceptance: Warrant['acceptance'] | null;
  conflict: Warrant['conflict'] | null;
  verification: Warrant['verification'] | null;
  currency: Warrant['currency'] | null;
  sufficiency: Warrant['sufficiency'] | null;
  unrecorded: boolean;
}

/** Options of {@link WarrantMemoryProcessor}. */
export interface WarrantMemoryProcessorOptions {
  /** Where the evidence is. */
  store: EvidenceStore;
  /** The proposition a recalled message speaks for; `undefined` leaves it as it is. Default: `content.metadata.proposition_id`. */
  propositionOf?: (message: MastraDBMessage) => string | undefined;
  /** An `@ewp/memory` ledger whose hot and confirmed memories join the context (`autoContext`). */
  memory?: Pick<MemoryLedger, 'autoContext'>;
  /** The memory ledger's project scope. Default: global memories. */
  project?: string | null;
  /** Clock for the evaluation time. Default `() => new Date()`. */
  now?: () => Date;
}

function declaredProposition(message: MastraDBMessage): string | undefined {
  const declared = message.content.metadata?.proposition_id;
  return typeof declared === 'string' && declared !== '' ? declared : undefined;
}

function axesLine(w: RecalledWarrant): string {
  if (w.unrecorded) return `- ${w.propositionId}: no recorded evidence (an unverified claim)`;
  return `- ${w.propositionId}: acceptance ${w.acceptance}, conflict ${w.conflict}, verification ${w.verification}, currency ${w.currency}, sufficiency ${w.sufficiency}`;
}

/**
 * An input processor for `new Agent({ inputProcessors })` or a memory's processors.
 *
 * @example
 * const agent = new Agent({ ..., memory, inputProcessors: [new WarrantMemoryProcessor({ store, memory: memoryLedger })] });
 */
export class WarrantMemoryProcessor implements Processor<'ewp-warrant-memory'> {
  readonly id = 'ewp-warrant-memory' as const;
  readonly name = 'EWP warrant of recalled memory';
  readonly #options: WarrantMemoryProcessorOptions;

  constructor(options: WarrantMemoryProcessorOptions) {
    checkStoreOption(options);
    this.#options = options;
  }

  /** The warrant of one proposition at `evaluatedAt`, as a recalled message carries it. */
  async warrantOf(propositionId: string, evaluatedAt: string): Promise<RecalledWarrant> {
    // Through the store's warrant table: no store read while T stays in a kept piece and nothing was committed.
    const w = await latestWarrant(this.#options.store, propositionId, evaluatedAt);
    if (w === undefined) {
      const none = { acceptance: null, conflict: null, verification: null, currency: null, sufficiency: null };
      return { propositionId, viewId: null, evaluatedAt, ...none, unrecorded: true };
    }
    const { acceptance, conflict, verification, currency, sufficiency } = w.warrant;
    return {
      propositionId,
      viewId: w.view_id,
      evaluatedAt,
      acceptance,
      conflict,
      verification,
      currency,
      sufficiency,
      unrecorded: false,
    };
  }

  async processInput({ messages, messageList, systemMessages }: ProcessInputArgs): Promise<ProcessInputResultWithSystemMessages> {
    const evaluatedAt = (this.#options.now ?? (() => new Date()))().toISOString();
    const propositionOf = this.#options.propositionOf ?? declaredProposition;
    const source = messageList.makeMessageSourceChecker();
    const warrants = new Map<string, RecalledWarrant>();
    const out = [];
    for (const message of messages) {
      const pid = source.getSource(message) === 'memory' ? propositionOf(message) : undefined;
      if (pid === undefined) {
        out.push(message);
        continue;
      }
      let ewp = warrants.get(pid);
      if (ewp === undefined) {
        ewp = await this.warrantOf(pid, evaluatedAt);
        warrants.set(pid, ewp);
      }
      out.push({ ...message, content: { ...message.content, metadata: { ...message.content.metadata, ewp } } });
    }
    const added: string[] = [];
    if (warrants.size > 0) {
      added.push(
        `EWP warrant of the recalled messages at ${evaluatedAt} (recalled is not believed: act only on what is ACCEPTED and not in conflict):\n${[...warrants.values()].map(axesLine).join('\n')}`,
      );
    }
    if (this.#options.memory !== undefined) {
      added.push(agentContextText(await this.#options.memory.autoContext({ project: this.#options.project ?? null, at: evaluatedAt })));
    }
    return { messages: out, systemMessages: [...systemMessages, ...added.map((content) => ({ role: 'system' as const, content }))] };
  }
}
