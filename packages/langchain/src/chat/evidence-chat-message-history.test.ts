import { REFERENCE_V2, warrantNow } from '@ewp/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { EvidenceChatMessageHistory } from './evidence-chat-message-history.js';

const T = new Date('2026-09-21T21:00:00Z');

describe('EvidenceChatMessageHistory', () => {
  it('keeps messages in the wrapped history and records each as a turn assertion with its own lineage', async () => {
    const ledger = new MemoryEvidenceStore();
    const inner = new InMemoryChatMessageHistory();
    const history = new EvidenceChatMessageHistory({ history: inner, ledger, sessionId: 's1', now: () => T });
    await history.addUserMessage('I verified the backup yesterday');
    await history.addAIMessage('Noted: the backup was verified.');
    await history.addMessages([new HumanMessage('and it is still fine')]);
    expect((await inner.getMessages()).map((m) => m.content)).toEqual([
      'I verified the backup yesterday',
      'Noted: the backup was verified.',
      'and it is still fine',
    ]);
    expect((await history.getMessages()).length).toBe(3);
    const view = (await ledger.get('chat:s1'))!;
    expect(view.assertions.map((a) => [a.text, a.asserted_by, a.source.origin_type])).toEqual([
      ['I verified the backup yesterday', 'chat.human', 'turn'],
      ['Noted: the backup was verified.', 'chat.ai', 'turn'],
      ['and it is still fine', 'chat.human', 'turn'],
    ]);
    expect(new Set(view.assertions.map((a) => a.source.lineage_id)).size).toBe(3);
    const w = (await history.warrant())!;
    // A turn saying "verified" is a claim, not a verification.
    expect(w).toMatchObject({ acceptance: 'TENTATIVE', verification: 'NONE', sufficiency: 'SUFFICIENT' });
    expect(w.independentLineageCount).toBe(3);
    expect((await ledger.listSnapshots('chat:s1')).length).toBe(3);
  });

  it('routes messages to propositions and skips those mapped to none', async () => {
    const ledger = new MemoryEvidenceStore();
    const history = new EvidenceChatMessageHistory({
      history: new InMemoryChatMessageHistory(),
      ledger,
      sessionId: 's2',
      now: () => T,
      propositionOf: (m) => (m.getType() === 'system' ? undefined : m.getType() === 'human' ? 'P-user-said' : 'P-agent-said'),
    });
    await history.addMessages([new SystemMessage('be brief'), new HumanMessage('hello'), new AIMessage('hi')]);
    expect((await history.getMessages()).length).toBe(3);
    expect((await ledger.get('P-user-said'))!.assertions.map((a) => a.text)).toEqual(['hello']);
    expect((await ledger.get('P-agent-said'))!.assertions.map((a) => a.text)).toEqual(['hi']);
    expect(await ledger.listPropositions()).toHaveLength(2);
  });

  it('never loses a record when the history is cleared and positions repeat', async () => {
    const ledger = new MemoryEvidenceStore();
    let now = T;
    const history = new EvidenceChatMessageHistory({ history: new InMemoryChatMessageHistory(), ledger, sessionId: 's3', now: () => now });
    await history.addUserMessage('first');
    await history.clear();
    now = new Date('2026-09-21T21:01:00Z');
    await history.addUserMessage('second');
    expect((await history.getMessages()).map((m) => m.content)).toEqual(['second']);
    expect((await ledger.get('chat:s3'))!.assertions.map((a) => a.text)).toEqual(['first', 'second']);
  });

  it('stores nothing when the ledger refuses (evidence first)', async () => {
    const ledger = new MemoryEvidenceStore();
    const inner = new InMemoryChatMessageHistory();
    await ledger.close();
    const history = new EvidenceChatMessageHistory({ history: inner, ledger, sessionId: 's4', now: () => T });
    await expect(history.addUserMessage('lost?')).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
    expect(await inner.getMessages()).toEqual([]);
    expect(() => new EvidenceChatMessageHistory({ history: inner, ledger, sessionId: '' })).toThrow(/sessionId/);
  });

  it('keeps the turns in a persistent SQLite ledger across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-lc-chat-'));
    try {
      const file = join(dir, 'ledger.sqlite');
      const ledger = new SqliteEvidenceStore(file);
      const history = new EvidenceChatMessageHistory({ history: new InMemoryChatMessageHistory(), ledger, sessionId: 's5', now: () => T });
      await history.addUserMessage('the VPN is down');
      await history.addAIMessage('I will check.');
      await ledger.close();
      const reopened = new SqliteEvidenceStore(file, { readOnly: true });
      expect((await reopened.get('chat:s5'))!.assertions.map((a) => a.text)).toEqual(['the VPN is down', 'I will check.']);
      expect((await reopened.verifyChain()).ok).toBe(true);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('works as the history of RunnableWithMessageHistory', async () => {
    const ledger = new MemoryEvidenceStore();
    const histories = new Map<string, EvidenceChatMessageHistory>();
    const prompt = ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{input}']]);
    const model = new FakeListChatModel({ responses: ['Paris is the capital of France.', 'You asked about Paris.'] });
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe(model),
      getMessageHistory: (sessionId: string) => {
        let h = histories.get(sessionId);
        if (!h) {
          h = new EvidenceChatMessageHistory({ history: new InMemoryChatMessageHistory(), ledger, sessionId, now: () => T });
          histories.set(sessionId, h);
        }
        return h;
      },
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 'conv-1' } };
    await chain.invoke({ input: 'What is the capital of France?' }, config);
    const second = await chain.invoke({ input: 'What did I ask?' }, config);
    expect(second.content).toBe('You asked about Paris.');
    const view = (await ledger.get('chat:conv-1'))!;
    expect(view.assertions.map((a) => [a.asserted_by, a.text])).toEqual([
      ['chat.human', 'What is the capital of France?'],
      ['chat.ai', 'Paris is the capital of France.'],
      ['chat.human', 'What did I ask?'],
      ['chat.ai', 'You asked about Paris.'],
    ]);
    const w = warrantNow(view, REFERENCE_V2, T.toISOString());
    expect(w.warrant.verification).toBe('NONE');
    expect(w.independent_lineage_count).toBe(4);
  });
});
