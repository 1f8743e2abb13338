/**
 * An agent built with `createAgent` (langchain v1) and the fake tool-calling model of
 * @langchain/core/testing stores and recalls memories through WarrantedStore; the recalled
 * memory reaches the model with its warrant.
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { getStore, InMemoryStore } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WarrantedStore } from './warranted-store.js';

const T = new Date('2026-09-21T21:00:00Z');

function memoryTools() {
  const remember = tool(
    async ({ key, text }) => {
      const store = getStore() as WarrantedStore;
      await store.put(['memories', 'user-1'], key, { text, proposition_id: `pref:${key}` });
      return `stored ${key}`;
    },
    { name: 'remember', description: 'Store a memory', schema: z.object({ key: z.string(), text: z.string() }) },
  );
  const recall = tool(
    async ({ key }) => {
      const store = getStore() as WarrantedStore;
      const item = await store.get(['memories', 'user-1'], key);
      if (item === null) return 'nothing stored';
      const w = item.warrant;
      return JSON.stringify({ text: item.value.text, acceptance: w.acceptance, verification: w.verification });
    },
    { name: 'recall', description: 'Recall a memory with its warrant', schema: z.object({ key: z.string() }) },
  );
  return [remember, recall];
}

describe('createAgent with WarrantedStore', () => {
  it('stores a memory in one run and recalls it with its warrant in another', async () => {
    const store = new WarrantedStore(new InMemoryStore(), { now: () => T });
    const model = fakeModel()
      .respondWithTools([{ name: 'remember', args: { key: 'drink', text: 'The user prefers tea' }, id: 'c1' }])
      .respond(new AIMessage('Saved.'))
      .respondWithTools([{ name: 'recall', args: { key: 'drink' }, id: 'c2' }])
      .respond(new AIMessage('You prefer tea (an unverified memory).'));
    const agent = createAgent({ model, tools: memoryTools(), store });

    await agent.invoke({ messages: [{ role: 'user', content: 'Remember that I prefer tea.' }] });
    const stored = (await store.get(['memories', 'user-1'], 'drink'))!;
    expect(stored.value).toEqual({ text: 'The user prefers tea', proposition_id: 'pref:drink' });
    expect((await store.ledger.get('pref:drink'))!.assertions[0]!.source.origin_type).toBe('turn');

    const second = await agent.invoke({ messages: [{ role: 'user', content: 'What do I drink?' }] });
    const toolMessage = second.messages.find((m) => ToolMessage.isInstance(m))!;
    expect(JSON.parse(String(toolMessage.content))).toEqual({ text: 'The user prefers tea', acceptance: 'TENTATIVE', verification: 'NONE' });
    // The model saw the warrant in the tool result of its second turn.
    const seen = model.calls[3]!.messages.map((m) => String(m.content)).join('\n');
    expect(seen).toContain('"verification":"NONE"');
    expect(second.messages.at(-1)!.content).toBe('You prefer tea (an unverified memory).');
  });
});
