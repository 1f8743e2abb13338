/**
 * The one rule for recording a conversation turn as evidence, shared by every framework's
 * conversation memory (LangChain chat history, OpenAI Agents `Session`, Mastra memory): a turn is
 * an assertion with origin `turn` and its own lineage. It says a claim was made, never that it was
 * verified, so it can make a proposition TENTATIVE at most.
 */
import { sha256Hex } from '@ewp/canonical';
import type { Assertion } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';

/** One turn of a conversation, as a binding sees it. */
export interface ConversationTurn {
  /** The conversation id; part of every record id and of the locator. */
  sessionId: string;
  /** The framework's locator scheme, e.g. `langchain:chat` or `openai-agents:session`. */
  locatorScheme: string;
  /** The turn's position in the conversation. */
  index: number;
  /** Who spoke, in the framework's words (`human`, `user`, `assistant`, `tool`); `asserted_by` is `chat.<role>`. */
  role: string;
  /** The turn's text. */
  text: string;
  /** The framework's id for the turn, when it has one. */
  messageId?: string | undefined;
  /** The proposition the turn asserts. */
  propositionId: string;
  /** When the turn was recorded. */
  at: Date;
}

/** The assertion a turn makes. */
export function turnAssertion(turn: ConversationTurn): Assertion {
  const at = turn.at.toISOString();
  const hash = sha256Hex(turn.text);
  // The turn's own id when it has one; else position + time + content, so a position reused after
  // the conversation was cleared never names other content.
  const local = turn.messageId ?? `${turn.index}@${at}#${hash.slice(0, 8)}`;
  const sourceId = `chat:${turn.sessionId}:${local}`;
  return {
    assertion_id: `${sourceId}:a`,
    proposition_id: turn.propositionId,
    text: turn.text,
    asserted_by: `chat.${turn.role}`,
    assertion_confidence: 0.5,
    asserted_at: at,
    source: {
      source_id: sourceId,
      lineage_id: sourceId,
      origin_type: 'turn',
      origin_locator: `${turn.locatorScheme}:${encodeURIComponent(turn.sessionId)}#${turn.index}`,
      snapshot_id: sourceId,
      content_hash: `sha256:${hash}`,
      observed_at: at,
      extractor_id: null,
      parent_source_id: null,
    },
  };
}

/**
 * Record a turn's assertion in `store`: a new proposition is put, an existing one extended; a turn
 * already recorded (same assertion id) is not written twice.
 */
export async function recordTurn(store: EvidenceStore, turn: ConversationTurn): Promise<void> {
  const assertion = turnAssertion(turn);
  const latest = await store.get(turn.propositionId);
  if (latest === undefined) {
    await store.put({ proposition_id: turn.propositionId, assertions: [assertion] });
  } else if (!latest.assertions.some((a) => a.assertion_id === assertion.assertion_id)) {
    await store.extend(turn.propositionId, [{ kind: 'assertion', record: assertion }]);
  }
}
