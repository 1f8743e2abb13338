/**
 * The evidence layer in a real `createAgent` (langchain v1) with the fake chat model of
 * @langchain/core/testing, over a SQLite file ledger: the system prompt the model received holds the
 * recalled, hot and confirmed parts under their labels, the hypothesis labelled a hypothesis and the
 * refuted memory disputed; `memory_store` / `memory_recall` write and read through the ledger (classes,
 * the support rule, the echo check).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@ewp/core';
import { MemoryLedger } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryContextMiddleware, memoryTools } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-langchain-memory-'));
let n = 0;
const stores: SqliteEvidenceStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ledgerWithMemories() {
  const store = new SqliteEvidenceStore(join(dir, `ledger-${++n}.sqlite`));
  stores.push(store);
  const ledger = new MemoryLedger(store);
  const backup = await ledger.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
  await ledger.store({ text: 'cron log: backup started 06:00:02', class: 'observation', source: 'cron-log', supports: [backup.hash] });
  const guess = await ledger.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
  const window = await ledger.store({ text: 'The maintenance window is 05:00', class: 'observation', source: 'wiki' });
  const calendar = await ledger.store({ text: 'The change calendar moved maintenance to 04:00', class: 'observation', source: 'calendar' });
  await ledger.refute(calendar.hash, window.hash);
  for (let i = 0; i < 3; i++) await ledger.recall({ query: 'scheduler misconfigured' });
  await ledger.recall({ query: 'maintenance window 05:00' });
  return { store, ledger, backup, guess, window };
}

const systemOf = (messages: BaseMessage[]) => {
  const first = messages[0]!;
  expect(first.getType()).toBe('system');
  return first.text;
};
const section = (text: string, from: string, to?: string) => text.slice(text.indexOf(from), to === undefined ? undefined : text.indexOf(to));

describe('memoryContextMiddleware in createAgent', () => {
  it('the model receives hot and confirmed as labelled parts; the hypothesis is labelled a hypothesis, the refuted memory disputed', async () => {
    const { ledger, backup, guess, window } = await ledgerWithMemories();
    const model = fakeModel().respond(new AIMessage('It is a hypothesis so far.'));
    const agent = createAgent({ model, tools: [], systemPrompt: 'You are the ops agent.', middleware: [memoryContextMiddleware({ ledger })] });
    await agent.invoke({ messages: [{ role: 'user', content: 'Is the scheduler misconfigured?' }] });

    const system = systemOf(model.calls[0]!.messages);
    expect(system.startsWith('You are the ops agent.\n\nMemory (EWP evidence layer).')).toBe(true);
    const recalledHead = '## recalled for this message';
    const hotHead = '## hot: recalled often or recently (salience).';
    const confirmedHead = '## confirmed: warrant ACCEPTED, or confidence at or above the threshold';
    expect(system.indexOf(recalledHead)).toBeLessThan(system.indexOf(hotHead));
    expect(system.indexOf(hotHead)).toBeLessThan(system.indexOf(confirmedHead));
    const recalled = section(system, recalledHead, hotHead);
    const hot = section(system, hotHead, confirmedHead);
    const confirmed = section(system, confirmedHead);
    expect(recalled).toContain(
      `- [HYPOTHESIS] The scheduler is misconfigured on every host (hypothesis · confidence 0 · warrant TENTATIVE · mem:${guess.hash})`,
    );
    expect(hot).toContain(`[HYPOTHESIS] The scheduler is misconfigured on every host`);
    expect(hot).toContain(`- [DISPUTED] The maintenance window is 05:00 (observation`);
    expect(hot).toContain(window.hash);
    // Recalled four times, the hypothesis is hot; it is never presented as confirmed.
    expect(confirmed).not.toContain(guess.hash);
    expect(confirmed).toContain(`- The backup job starts at 06:00 (observation · confidence 66`);
    expect(confirmed).toContain(backup.hash);
  });

  it('recalls for a user message once: a later model call of the same turn shows the context without recalling again', async () => {
    const { ledger, guess } = await ledgerWithMemories();
    const before = ledger.salience.get(guess.hash)!.recall_count;
    const model = fakeModel()
      .respondWithTools([{ name: 'memory_recall', args: { query: 'backup' }, id: 'c1' }])
      .respond(new AIMessage('Done.'));
    const agent = createAgent({ model, tools: memoryTools({ ledger, write: false }), middleware: [memoryContextMiddleware({ ledger })] });
    await agent.invoke({ messages: [{ role: 'user', content: 'Is the scheduler misconfigured?' }] });
    expect(model.calls).toHaveLength(2);
    expect(systemOf(model.calls[1]!.messages)).toContain(`[HYPOTHESIS] The scheduler is misconfigured on every host (hypothesis · confidence 0`);
    expect(ledger.salience.get(guess.hash)!.recall_count).toBe(before + 1);
  });

  it('refuses options without a ledger or store, naming the field', () => {
    expect(() => memoryContextMiddleware({} as never)).toThrow(InvalidArgumentError);
    try {
      memoryTools({} as never);
    } catch (e) {
      expect((e as InvalidArgumentError).path).toBe('options.ledger');
    }
    expect.assertions(2);
  });
});

describe('memoryTools in createAgent', () => {
  it("the agent's writes get classes, the support rule and the echo check; recall answers class and confidence", async () => {
    const { ledger, store } = await ledgerWithMemories();
    const model = fakeModel()
      .respondWithTools([{ name: 'memory_store', args: { text: 'So the 05:50 window is safe', epistemic_class: 'inference' }, id: 'c1' }])
      .respond(new AIMessage('Noted.'));
    const agent = createAgent({ model, tools: memoryTools({ store, project: null }), middleware: [memoryContextMiddleware({ store })] });
    const first = await agent.invoke({ messages: [{ role: 'user', content: 'Plan the maintenance.' }] });
    const stored = JSON.parse(String(first.messages.find((m) => ToolMessage.isInstance(m))!.content));
    expect(stored).toMatchObject({ status: 'stored', class: 'inference', confidence: 0, distinct_sources: 0 });
    const inference = stored.hash as string;

    // The agent's principal is no observer: its observation is refused by class, nothing is written.
    const model1 = fakeModel()
      .respondWithTools([
        { name: 'memory_store', args: { text: 'The backup log shows the job ends at 05:40', epistemic_class: 'observation', supports: [inference] }, id: 'c1' },
      ])
      .respond(new AIMessage('Refused.'));
    const agent1 = createAgent({ model: model1, tools: memoryTools({ store }) });
    const refusedRun = await agent1.invoke({ messages: [{ role: 'user', content: 'Check the window.' }] });
    const refusal = JSON.parse(String(refusedRun.messages.find((m) => ToolMessage.isInstance(m))!.content));
    expect(refusal.error).toMatchObject({ code: 'EWP_REFUSE_CLASS_NOT_ALLOWED', path: '$.epistemic_class' });
    expect((await ledger.show(inference)).support_count).toBe(0);

    // A principal the developer made an observer (the backup log reader) writes observations under its own name.
    const model2 = fakeModel()
      .respondWithTools([
        { name: 'memory_store', args: { text: 'The backup log shows the job ends at 05:40', epistemic_class: 'observation', supports: [inference] }, id: 'c2' },
      ])
      .respondWithTools([
        {
          name: 'memory_store',
          args: { text: 'the backup log shows the job ends at 05:40.', epistemic_class: 'observation', supports: [inference] },
          id: 'c3',
        },
      ])
      .respondWithTools([
        { name: 'memory_store', args: { text: 'Maybe every window is safe', epistemic_class: 'hypothesis', supports: [inference] }, id: 'c4' },
      ])
      .respondWithTools([{ name: 'memory_recall', args: { query: '05:50 window safe' }, id: 'c5' }])
      .respond(new AIMessage('Done.'));
    const agent2 = createAgent({ model: model2, tools: memoryTools({ store, principal: 'backup-log', observer: true }) });
    const second = await agent2.invoke({ messages: [{ role: 'user', content: 'Check the window.' }] });
    const answers = second.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => JSON.parse(String(m.content)));
    expect(answers[0]).toMatchObject({ status: 'stored', class: 'observation', links: [{ target: inference, echo: false, target_confidence: 48 }] });
    // A near copy from the same source (the backup-log principal) is an echo: it adds no source.
    expect(answers[1]).toMatchObject({ status: 'stored', links: [{ target: inference, echo: true, target_confidence: 48 }] });
    // A hypothesis as support is refused, naming it; nothing is written.
    expect(answers[2].error).toMatchObject({ code: 'EWP_REFUSE_MEMORY_SUPPORT_CLASS' });
    expect(answers[3].rows[0]).toMatchObject({ hash: inference, class: 'inference', confidence: 48, source: 'agent' });
    const shown = await ledger.show(inference);
    expect(shown).toMatchObject({ class: 'inference', distinct_sources: 1, echo_count: 1 });
    expect((await ledger.recall({ query: 'Maybe every window is safe', touch: false })).map((r) => r.text)).not.toContain('Maybe every window is safe');
  });

  it('refuses an empty source by name', async () => {
    const { ledger } = await ledgerWithMemories();
    expect(() => memoryTools({ ledger, source: ' ' })).toThrow(expect.objectContaining({ path: 'source' }));
    expect(() => memoryTools({ ledger, principal: 'agent/tool' })).toThrow(expect.objectContaining({ path: 'principal' }));
  });
});
